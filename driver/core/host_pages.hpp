// USM of a device that reaches host memory: whole pages of the host's own
// memory, mapped by the driver, that another process can map too (IPC).
//
// Pages start private and anonymous. Exporting them (zeMemGetIpcHandle) backs
// them, in place and with their contents, by a memory file whose descriptor
// the exporting process keeps while the allocation lives; the importing
// process takes a copy of that descriptor with pidfd_getfd(2) and maps the
// file. Linux 5.6 or later; the importer needs ptrace access to the exporter
// (same user, and under Yama ptrace_scope 1 an ancestor), as for any
// pidfd_getfd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sys/types.h>

namespace ze_driver {
namespace host_pages {

// The host's page size: also that of reservations, mappings and physical
// memory (virtual_memory.hpp).
size_t pageSize();
// `bytes` (a multiple of the page size) of zeroed memory aligned to
// `alignment` (a power of two, at least a page). Throws OUT_OF_HOST_MEMORY.
void *allocate(size_t bytes, size_t alignment);
// Unmaps what allocate() or open() returned, and closes the memory file, if
// any (-1: none).
void release(void *base, size_t bytes, int fd);
// Backs [base, base + bytes) by a new memory file holding what the pages
// hold, at the same addresses, and returns the file's descriptor. Work still
// writing to the pages meanwhile may be lost: export before use.
int share(void *base, size_t bytes);
// A memory file as another process names it: its descriptor there (or here,
// when the application passed it over a socket, as Intel's driver has
// applications do) and its identity, which tells the two apart. IPC handles
// (ipc.cpp, event_ipc.cpp) start with it as it is: the descriptor first,
// where applications that pass handles over a socket find it and replace it
// by their own.
struct SharedFile {
    int32_t fd;
    int32_t pid;
    uint64_t inode, device;
};
// The identity of a memory file this process holds as `fd`.
SharedFile identify(int fd);
// Maps `bytes` of `file` from `offset`. Returns the mapping; throws
// INVALID_ARGUMENT when the file cannot be reached (its process is gone, or
// this one may not take its descriptors) or is shorter than that (a damaged
// handle: the mapping would fault where the file ends).
void *open(const SharedFile &file, size_t offset, size_t bytes);

} // namespace host_pages
} // namespace ze_driver
