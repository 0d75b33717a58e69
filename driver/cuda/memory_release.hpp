// Freeing memory without waiting for the device. CUDA's cuMemFree and
// cuMemFreeHost synchronize the device: they wait for the work of every
// stream, holding CUDA's locks meanwhile. A stream waiting for an event that
// the host sets (zeCommandListAppendWaitOnEvents, then zeEventHostSignal)
// then never finishes when the thread that is to set the event is inside a
// CUDA call of its own: the free never returns, and neither does any thread
// of the process that calls CUDA (measured on an H100 and an H200: eight
// threads replaying lists that wait for their own host events hang as soon as
// one of them frees memory; scripts/gpu_check.sh's model suites). So:
// - device memory is freed in stream order (cuMemFreeAsync) on a stream of
//   its device's own that has no work, which waits for nothing;
// - pinned host memory is kept for reuse, as CUDA frameworks' caching host
//   allocators do, and given back to CUDA only when an allocation of pinned
//   memory fails for lack of it.
// Managed (shared) memory is still freed with cuMemFree.
#pragma once

#include "cuda_api.hpp"

#include <cstddef>

namespace ze_driver {

class Device;

void releaseDeviceMemory(Device *device, void *pointer) noexcept;

// Device memory (cuMemAlloc) of `device`, current. Memory freed in stream
// order returns to CUDA once its stream has run the frees and been
// synchronized: an allocation that finds too little memory synchronizes
// that stream (which holds nothing but frees, so waits for nothing else) and
// tries once more. The CUDA result of the last try.
ze_cuda::CUresult allocateDeviceMemory(Device *device, ze_cuda::CUdeviceptr *pointer, size_t bytes);

// Pinned host memory of at least `bytes` (cuMemHostAlloc, portable and
// mapped for every device), reused when some was given back; `*size` is how
// much it has. Throws OUT_OF_HOST_MEMORY when there is none.
void *takeHostMemory(size_t bytes, size_t *size);
void giveHostMemory(void *pointer, size_t size) noexcept;

} // namespace ze_driver
