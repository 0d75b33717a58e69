// Fuzz target: the persistent SPIR-V cache's reader (DiskCache::load) on
// arbitrary entry files.
//
// The input is the file's bytes. Random bytes almost never carry the right
// key digest and payload checksum, so unless the header's reserved word has
// its low bit set, the target seals the input first: it writes the key and
// the SHA-256 of the payload into the header and leaves every other field
// (magic, format, sizes) as fuzzed. Properties: a hit returns exactly the
// payload the header describes, and stores back to an identical hit; a miss
// deletes the file, so that the next build can write a good one.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "disk_cache.hpp"
#include "fuzz_check.hpp"
#include "hash.hpp"

namespace {

using imex_l0::compiler::CompileResult;
using imex_l0::compiler::DiskCache;
using imex_l0::compiler::Digest;

using imex_l0::compiler::DiskCacheHeader;

constexpr size_t kHeaderSize = sizeof(DiskCacheHeader);
constexpr size_t kReservedOffset = offsetof(DiskCacheHeader, reserved);
constexpr size_t kSpirvSizeOffset = offsetof(DiskCacheHeader, spirvSize);
constexpr size_t kKeyOffset = offsetof(DiskCacheHeader, key);
constexpr size_t kChecksumOffset = offsetof(DiskCacheHeader, checksum);

DiskCache *cache;
Digest key;
std::string directory;
std::string entry;

bool exists(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

void writeFile(const std::string &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    FUZZ_CHECK(out.good(), "cannot write %s", path.c_str());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/imex_l0_disk_cache_fuzz_XXXXXX";
    FUZZ_CHECK(mkdtemp(dir.data()) != nullptr, "mkdtemp failed");
    directory = dir;
    std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(directory, ignored);
    });
    // Leaked on purpose: it lives as long as the process.
    cache = new DiskCache(1u << 20);
    std::string error = cache->setDirectory(dir);
    FUZZ_CHECK(error.empty(), "%s", error.c_str());
    key = imex_l0::compiler::sha256("the fuzz target's one key");
    entry = cache->entryPath(key);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string bytes(reinterpret_cast<const char *>(data), size);
    if (bytes.size() >= kHeaderSize && (bytes[kReservedOffset] & 1) == 0) {
        Digest sum = imex_l0::compiler::sha256(std::string_view(bytes).substr(kHeaderSize));
        std::memcpy(&bytes[kKeyOffset], key.data(), key.size());
        std::memcpy(&bytes[kChecksumOffset], sum.data(), sum.size());
    }
    writeFile(entry, bytes);

    std::optional<CompileResult> hit = cache->load(key);
    if (!hit) {
        FUZZ_CHECK(!exists(entry), "a rejected entry was left in the cache");
        return 0;
    }
    uint64_t spirvSize = 0;
    std::memcpy(&spirvSize, &bytes[kSpirvSizeOffset], sizeof spirvSize);
    FUZZ_CHECK(hit->ok == (spirvSize > 0),
               "a hit with %llu SPIR-V bytes is %s (only a compile error has none)",
               static_cast<unsigned long long>(spirvSize), hit->ok ? "a success" : "a failure");
    FUZZ_CHECK(kHeaderSize + hit->spirv.size() + hit->log.size() == bytes.size(),
               "a hit of %zu + %zu payload bytes from a %zu-byte file", hit->spirv.size(),
               hit->log.size(), bytes.size());
    FUZZ_CHECK(hit->spirv.size() == spirvSize, "the header says %llu SPIR-V bytes, the hit has %zu",
               static_cast<unsigned long long>(spirvSize), hit->spirv.size());
    FUZZ_CHECK(hit->spirv + hit->log == bytes.substr(kHeaderSize), "the payload changed");

    cache->store(key, *hit);
    std::optional<CompileResult> again = cache->load(key);
    FUZZ_CHECK(again && again->ok == hit->ok && again->spirv == hit->spirv &&
                   again->log == hit->log,
               "a stored hit does not read back");
    return 0;
}
