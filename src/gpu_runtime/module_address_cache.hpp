// Lowered code calls gpuModuleLoad before every launch with the same blob (a
// constant global of the program), so a repeated load must cost what a lookup
// costs, whatever the module's size. This cache maps (address, size) to the
// module built from the bytes seen there, and checks a fingerprint of the
// bytes on every hit instead of comparing them all: the SPIR-V header (whose
// ID bound changes with almost any change of the code) and 16 words spread
// evenly over the blob. A miss, or a changed fingerprint, goes to the
// engine's content cache (a full comparison), so a caller that reuses an
// address for different bytes gets the other module. The limit of the rule:
// bytes at the same address and size that differ only outside the sampled
// words are taken for the module seen before; see include/imex_gpu_runtime.h.
// One per gpu stream, used by one thread at a time (no lock).
#pragma once

#include "compute/kernel_cache.hpp"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace imex_l0 {

class ModuleAddressCache {
public:
    // The module remembered for these bytes at this address, or null.
    KernelCache::Module *find(const void *spirv, size_t size);
    void remember(const void *spirv, size_t size, KernelCache::Module *module);

private:
    static constexpr int kSamples = 16 + 3; // evenly spread words + the header
    struct Fingerprint {
        uint64_t words[kSamples];
        bool operator==(const Fingerprint &o) const;
    };
    struct Entry {
        size_t size;
        Fingerprint fingerprint;
        KernelCache::Module *module;
    };
    static Fingerprint fingerprint(const void *spirv, size_t size);
    static bool matches(const Entry &e, const void *spirv, size_t size);

    // The last hit, checked first: most programs load one module.
    const void *lastAddress_ = nullptr;
    Entry last_{};
    std::unordered_map<const void *, Entry> entries_;
};

} // namespace imex_l0
