// The library's kernels/*.h, embedded at build time (embed_headers.cmake
// generates the definition).
#pragma once

#include <cstddef>

namespace imex_l0::compiler {

struct EmbeddedHeader {
    const char *name;     // path relative to kernels/, e.g. "imex_l0/indexing.h"
    const char *contents;
    size_t size;
};

extern const EmbeddedHeader kEmbeddedHeaders[];
extern const size_t kEmbeddedHeaderCount;

} // namespace imex_l0::compiler
