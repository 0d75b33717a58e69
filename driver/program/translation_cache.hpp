// Translated modules by content, so that creating a module from SPIR-V seen
// before skips validation and translation (frameworks create the same module
// on every device, context or run). Only successful translations are kept;
// what they would append to a build log is kept with them and replayed.
#pragma once

#include "spirv_translator.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

struct CachedTranslation {
    TranslatedModule module;
    std::string log; // what the translation appended to the build log
};

// The cache key: each module's SPIR-V bytes and the specialization
// constants applied to it.
std::string translationKey(const SpirvProgram &program);

// The process's cache, bounded to kTranslationCacheBytes (keys and bitcode),
// least recently used first out. Thread-safe.
constexpr size_t kTranslationCacheBytes = 64u << 20;
std::shared_ptr<const CachedTranslation> findTranslation(const std::string &key);
void keepTranslation(std::string key, std::shared_ptr<const CachedTranslation> translation);

} // namespace detail
} // namespace ze_driver
