// The persistent SPIR-V cache: one file per build in a directory several
// processes may share.
//
// File <dir>/<sha256 of the key>.imex_l0_spirv:
//   magic "IMXL0SPV" | u32 format | u32 0 | u64 spirv bytes | u64 log bytes |
//   key digest (32) | SHA-256 of the payload (32) | payload = spirv, log
// A compile error is stored too, with 0 SPIR-V bytes and its log, so a
// failing source is not compiled again by every run.
// Writers write a private temporary file and rename() it into place, so a
// reader sees a whole entry or none. A short, foreign or corrupted file
// (size, magic, key or checksum mismatch) is a miss: it is deleted and the
// build rewrites it. Past the size bound the least recently used entries
// (by modification time, refreshed on every hit) are deleted.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "compiler.hpp"
#include "hash.hpp"

namespace imex_l0::compiler {

// The header of an entry file, as written (little-endian, no padding).
struct DiskCacheHeader {
    char magic[8];
    uint32_t format;
    uint32_t reserved;
    uint64_t spirvSize;
    uint64_t logSize;
    uint8_t key[32];
    uint8_t checksum[32];
};
static_assert(sizeof(DiskCacheHeader) == 96, "the on-disk header has no padding");

class DiskCache {
public:
    explicit DiskCache(uint64_t maxBytes) : maxBytes_(maxBytes) {}

    // "" disables the cache. Creates the directory. Returns "" or the reason.
    std::string setDirectory(const std::string &dir);
    bool enabled() const;

    std::optional<CompileResult> load(const Digest &key);
    void store(const Digest &key, const CompileResult &result);

    // The entry file of key (tests corrupt it); "" when disabled.
    std::string entryPath(const Digest &key) const;

private:
    void evictBeyondBound(const std::string &dir);
    std::string directory() const;

    const uint64_t maxBytes_;
    mutable std::mutex mutex_; // guards dir_
    std::string dir_;
};

} // namespace imex_l0::compiler
