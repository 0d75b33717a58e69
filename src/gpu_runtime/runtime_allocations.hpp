// What gpuMemAlloc and mgpuMemAlloc handed out and did not free yet: their
// frees refuse any other pointer, so memory a caller allocated itself (with
// zeMemAlloc*) is never freed by a wrapper that happens to accept its
// context. USM addresses are unique in a process, so one set serves every
// context. Thread-safe.
#pragma once

namespace imex_l0::runtime_allocations {

// Records an allocation just made (throws std::bad_alloc, nothing recorded).
void add(void *ptr);
// Forgets ptr; false when it is not a live allocation of the wrappers.
bool remove(void *ptr);

} // namespace imex_l0::runtime_allocations
