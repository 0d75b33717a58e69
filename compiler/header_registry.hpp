// The headers `#include "name"` resolves to: the library's own kernels/*.h
// (embedded at build time) plus headers registered at runtime. Nothing is read
// from the working directory.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "hash.hpp"

namespace imex_l0::compiler {

class HeaderRegistry {
public:
    // An immutable view: a compile takes one and uses it from start to end,
    // so a registration during a compile cannot tear its headers.
    struct Snapshot {
        std::map<std::string, std::string> headers; // name -> contents
        // SHA-256 over every (name, contents): part of every cache key, so a
        // changed or added header changes the key of every compile.
        Digest digest{};
    };

    static HeaderRegistry &instance();

    std::shared_ptr<const Snapshot> snapshot() const;

    // Adds or replaces a header. Returns "" or why the name is rejected.
    std::string add(const std::string &name, const std::string &contents);

private:
    HeaderRegistry();

    // Guards current_ (the pointer, not the snapshot it points to, which
    // never changes once published).
    mutable std::mutex mutex_;
    std::shared_ptr<const Snapshot> current_;
};

// True if name is a relative path without "." / ".." components.
bool isValidHeaderName(const std::string &name);

} // namespace imex_l0::compiler
