// Counts heap allocations made by the calling thread.
//
// alloc_counter.cpp replaces the global operator new/delete and malloc,
// calloc and realloc of the whole process (every shared library, the
// project's library included, calls the executable's definitions). Only
// the thread that allocates is charged, so the driver's and PoCL's worker
// threads do not blur the count of the thread that launches.
//
// It also wraps the Level Zero entry points a launch and a host
// synchronisation use, so that allocations made inside them (by the loader,
// the driver and PoCL) can be told from the caller's own: the library's
// allocations are those of a library launch made outside ze* calls.
#pragma once

#include "bench_common.hpp"

#include <cstdint>

namespace bench {

struct AllocCount {
    uint64_t news = 0;    // operator new and new[], every variant
    uint64_t mallocs = 0; // malloc, calloc, and realloc that allocates
    uint64_t outsideZe = 0; // of both, those made outside the wrapped ze* calls
    uint64_t total() const { return news + mallocs; }
};

// What this thread has allocated since it started.
AllocCount threadAllocations();

// Publishes the allocations since `before` per benchmark iteration as the
// counter the summary reads.
inline void publishAllocations(benchmark::State &state, const AllocCount &before) {
    AllocCount now = threadAllocations();
    double iterations = double(state.iterations() ? state.iterations() : 1);
    state.counters[kAllocCounter] = double(now.total() - before.total()) / iterations;
    state.counters[kOwnAllocCounter] = double(now.outsideZe - before.outsideZe) / iterations;
}

} // namespace bench
