// The compiler service: one per process. Parses options, builds the cache
// key, and answers from the memory cache, then the disk cache, then a build
// by the configured back end.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "disk_cache.hpp"
#include "imex_l0_interop.h"
#include "memory_cache.hpp"

namespace imex_l0::compiler {

class Service {
public:
    static Service &instance();

    // A build result and its status (compile_error also for rejected options).
    struct Outcome {
        imex_l0_status_t status;
        MemoryCache::Result result; // non-null
    };
    // headers (nheaders of them): this compile's own, over the registry's.
    Outcome compile(std::string_view source, const char *options, size_t ndefines,
                    const imex_l0_define_t *defines, size_t nheaders,
                    const imex_l0_header_t *headers, uint32_t spirvVersion);

    std::string setCacheDir(const std::string &dir) { return disk_.setDirectory(dir); }
    void stats(imex_l0_cache_stats_t *out) const;

private:
    Service();

    MemoryCache memory_;
    DiskCache disk_;
    std::atomic<uint64_t> memoryHits_{0}, memoryMisses_{0}, diskHits_{0}, diskMisses_{0};
};

} // namespace imex_l0::compiler
