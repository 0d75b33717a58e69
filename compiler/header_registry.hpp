// The headers `#include "name"` resolves to: the library's own kernels/*.h
// (embedded at build time) plus headers registered at runtime. Nothing is read
// from the working directory.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
    // The current snapshot with `own` added over it (one compile's headers);
    // null, with the reason in *why, when a name is refused as add() would.
    std::shared_ptr<const Snapshot>
    snapshotWith(const std::vector<std::pair<std::string, std::string>> &own,
                 std::string *why) const;

    // Adds or replaces a header. Returns "" or why the name is rejected: an
    // invalid one, or one of the library's own headers (kernels/), which a
    // registration must not replace under the kernels that include them.
    std::string add(const std::string &name, const std::string &contents);

private:
    HeaderRegistry();

    // "" or why `name` cannot be a header's.
    static std::string refusal(const std::string &name);

    // Guards current_ (the pointer, not the snapshot it points to, which
    // never changes once published).
    mutable std::mutex mutex_;
    std::shared_ptr<const Snapshot> current_;
};

// True if name is a relative path without "." / ".." components.
bool isValidHeaderName(const std::string &name);

// What a compile of `source` can read from the registry: the headers its
// `#include "..."` / `#include <...>` lines name, and theirs, transitively
// (a header's includes both relative to its directory and from the root)
// (a name the registry lacks counts too, as absent, so registering it later
// changes the result). Digested into the compile's cache key instead of the
// whole registry, so that registering an unrelated header keeps every
// cached build. A source or header whose includes are not all plain names
// (`#include MACRO`) gets the whole registry's digest.
Digest includedHeadersDigest(std::string_view source, const HeaderRegistry::Snapshot &headers);

} // namespace imex_l0::compiler
