#include "gpu_runtime/module_address_cache.hpp"

#include <cstring>

namespace imex_l0 {

bool ModuleAddressCache::Fingerprint::operator==(const Fingerprint &o) const {
    return std::memcmp(words, o.words, sizeof words) == 0;
}

ModuleAddressCache::Fingerprint ModuleAddressCache::fingerprint(const void *spirv, size_t size) {
    const auto *bytes = static_cast<const unsigned char *>(spirv);
    Fingerprint f{};
    if (size < sizeof(uint64_t) * kSamples) {
        // Small enough to take whole (zero-padded; the size is compared too).
        std::memcpy(f.words, bytes, size);
        return f;
    }
    // Words 0-5 of the header: magic, version, generator, ID bound, schema.
    for (int i = 0; i < 3; ++i)
        std::memcpy(&f.words[i], bytes + i * sizeof(uint64_t), sizeof(uint64_t));
    const size_t span = size - sizeof(uint64_t);
    for (int i = 0; i < kSamples - 3; ++i)
        std::memcpy(&f.words[3 + i], bytes + span * size_t(i) / (kSamples - 4),
                    sizeof(uint64_t));
    return f;
}

bool ModuleAddressCache::matches(const Entry &e, const void *spirv, size_t size) {
    return e.size == size && e.fingerprint == fingerprint(spirv, size);
}

KernelCache::Module *ModuleAddressCache::find(const void *spirv, size_t size) {
    if (spirv == lastAddress_)
        return matches(last_, spirv, size) ? last_.module : nullptr;
    auto it = entries_.find(spirv);
    if (it == entries_.end() || !matches(it->second, spirv, size))
        return nullptr;
    lastAddress_ = spirv;
    last_ = it->second;
    return last_.module;
}

void ModuleAddressCache::remember(const void *spirv, size_t size, KernelCache::Module *module) {
    Entry e{size, fingerprint(spirv, size), module};
    entries_[spirv] = e;
    lastAddress_ = spirv;
    last_ = e;
}

} // namespace imex_l0
