#include "queue.hpp"

#include "context.hpp"
#include "device.hpp"
#include "event.hpp"
#include "kernel.hpp"
#include "module.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

namespace ze_driver {

using ze_cuda::CUdeviceptr;

namespace {

CUdeviceptr address(const void *pointer) {
    return reinterpret_cast<CUdeviceptr>(pointer);
}

} // namespace

Queue::Queue(Context *context, Device *device) : context_(context), device_(device) {
    makeCurrent(device_);
    checkCuda(cuda().cuStreamCreate(&stream_, ze_cuda::CU_STREAM_NON_BLOCKING));
}

Queue::~Queue() {
    // cuStreamDestroy needs no current context; nothing here may throw.
    cuda().cuStreamDestroy(stream_);
    if (gates_ != nullptr)
        cuda().cuStreamDestroy(gates_);
}

void Queue::wait(ze_cuda::CUstream stream, const std::vector<Event *> &waits) {
    for (Event *event : waits) {
        Signal &signal = event->signal();
        if (!signal.isSet())
            checkCuda(cuda().cuStreamWaitValue32(stream, signal.deviceWord(), signal.target(),
                                                 ze_cuda::CU_STREAM_WAIT_VALUE_GEQ));
    }
}

void Queue::write(ze_cuda::CUstream stream, Signal &signal) {
    checkCuda(cuda().cuStreamWriteValue32(stream, signal.deviceWord(), signal.target(),
                                          ze_cuda::CU_STREAM_WRITE_VALUE_DEFAULT));
}

void Queue::hostTask(std::function<void()> task) {
    auto *heap = new std::function<void()>(std::move(task));
    auto run = [](void *raw) {
        std::unique_ptr<std::function<void()>> owned(static_cast<std::function<void()> *>(raw));
        (*owned)();
    };
    ze_cuda::CUresult r = cuda().cuLaunchHostFunc(stream_, run, heap);
    if (r != ze_cuda::CUDA_SUCCESS) {
        delete heap;
        checkCuda(r);
    }
}

// cuMemsetD8/D16/D32 for patterns of 1, 2 and 4 bytes on aligned whole
// repetitions; otherwise the pattern is copied to the start of the
// destination and doubled by device-to-device copies (log2 of the
// repetitions), the last one cut short.
void Queue::fill(const Command &c) {
    CUdeviceptr dst = address(c.dst);
    size_t n = c.pattern.size();
    const uint8_t *p = c.pattern.data();
    if (n == 1)
        return checkCuda(cuda().cuMemsetD8Async(dst, p[0], c.size, stream_));
    if (dst % n == 0 && c.size % n == 0 && (n == 2 || n == 4)) {
        if (n == 2) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return checkCuda(cuda().cuMemsetD16Async(dst, v, c.size / 2, stream_));
        }
        uint32_t v;
        std::memcpy(&v, p, 4);
        return checkCuda(cuda().cuMemsetD32Async(dst, v, c.size / 4, stream_));
    }
    // From pageable host memory the copy returns once the bytes are staged,
    // so the pattern need not outlive the call.
    checkCuda(cuda().cuMemcpyHtoDAsync(dst, p, std::min(n, c.size), stream_));
    for (size_t done = n; done < c.size; done *= 2)
        checkCuda(
            cuda().cuMemcpyDtoDAsync(dst + done, dst, std::min(done, c.size - done), stream_));
}

// The parameters are the kernel's arguments as the translator left them
// (ptx_translator.hpp): values and USM pointers as they are, each __local
// pointer a 64-bit byte offset into the launch's dynamic shared memory,
// which holds them all (each at a multiple of 16 bytes: the alignment of the
// largest access the NVPTX backend makes, a 16-byte vector); then the three
// components of the global offset.
void Queue::launchKernel(Kernel &kernel, const KernelLaunch &launch,
                         const ze_group_count_t &groups) {
    check(kernel.module()->device() == device_, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    const KernelInfo &info = kernel.info();
    const size_t n = launch.args.size();
    constexpr size_t kInline = 32;
    void *inlineParams[kInline + 3];
    uint64_t inlineOffsets[kInline];
    std::vector<void *> heapParams;
    std::vector<uint64_t> heapOffsets;
    void **params = inlineParams;
    uint64_t *offsets = inlineOffsets;
    if (n > kInline) {
        heapParams.resize(n + 3);
        heapOffsets.resize(n);
        params = heapParams.data();
        offsets = heapOffsets.data();
    }
    for (size_t d = 0; d < 3; ++d)
        params[n + d] = const_cast<uint32_t *>(&launch.offset[d]);
    uint64_t shared = 0;
    for (size_t i = 0; i < n; ++i) {
        const ArgValue &a = launch.args[i];
        if (info.args[i].kind == ArgKind::LocalPointer) {
            shared = (shared + 15) / 16 * 16;
            offsets[i] = shared;
            shared += a.localSize;
            params[i] = &offsets[i];
        } else {
            params[i] = const_cast<uint8_t *>(a.bytes.data());
        }
    }
    // The kernel's own __local variables and its arguments' share one limit.
    check(shared + kernel.native().staticShared <= device_->localMemSize(),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    const ze_device_compute_properties_t &limits = device_->info().compute;
    check(groups.groupCountX <= limits.maxGroupCountX && groups.groupCountY <= limits.maxGroupCountY &&
              groups.groupCountZ <= limits.maxGroupCountZ,
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    checkCuda(cuda().cuLaunchKernel(kernel.native().function, groups.groupCountX,
                                    groups.groupCountY, groups.groupCountZ, launch.groupSize[0],
                                    launch.groupSize[1], launch.groupSize[2],
                                    static_cast<unsigned>(shared), stream_, params, nullptr));
}

void Queue::launch(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waits) {
    makeCurrent(device_);
    wait(stream_, waits);
    launchKernel(*kernel, kernel->launch(), groups);
    if (signal != nullptr)
        write(stream_, signal->signal());
}

void Queue::enqueue(const Command &c) {
    makeCurrent(device_);
    if (c.type == Command::Type::Reset) {
        // Done on the host when the command is reached in submission order,
        // as on the OpenCL backend: a later write of the earlier target no
        // longer sets the event.
        c.signal->signal().reset();
        return;
    }
    wait(stream_, c.waits);
    switch (c.type) {
    case Command::Type::Launch:
        launchKernel(*c.kernel, *c.launch, c.groups);
        break;
    case Command::Type::Copy:
        if (c.size > 0)
            checkCuda(cuda().cuMemcpyAsync(address(c.dst), address(c.src), c.size, stream_));
        break;
    case Command::Type::Fill:
        if (c.size > 0)
            fill(c);
        break;
    case Command::Type::CopyRegion:
        forEachRegionRow(c, [&](uint8_t *dst, const uint8_t *src, size_t bytes) {
            checkCuda(cuda().cuMemcpyAsync(address(dst), address(src), bytes, stream_));
        });
        break;
    case Command::Type::WriteTimestamp:
    case Command::Type::QueryTimestamps: {
        // Written by the host when the stream gets there: the destination
        // must be memory the host can write.
        Allocation a;
        check(!context_->find(c.dst, &a) || a.type != ZE_MEMORY_TYPE_DEVICE,
              ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        if (c.type == Command::Type::WriteTimestamp) {
            auto *dst = static_cast<uint64_t *>(c.dst);
            hostTask([dst] { *dst = deviceTimeNs(); });
            break;
        }
        std::vector<std::shared_ptr<Signal>> signals;
        for (Event *e : c.queried) {
            wait(stream_, {e});
            signals.push_back(e->sharedSignal());
        }
        auto *dst = static_cast<uint8_t *>(c.dst);
        hostTask([signals, dst, offsets = c.offsets] {
            writeKernelTimestamps(signals, dst, offsets);
        });
        break;
    }
    case Command::Type::Barrier:
        // A barrier with wait events is gated by those events only, not by
        // the work before it: its signal is written on a stream of its own
        // that waits for the events. Later commands on this stream still
        // wait for the events (above) and for the work before (in order).
        if (!c.waits.empty() && c.signal != nullptr) {
            if (gates_ == nullptr)
                checkCuda(cuda().cuStreamCreate(&gates_, ze_cuda::CU_STREAM_NON_BLOCKING));
            wait(gates_, c.waits);
            write(gates_, c.signal->signal());
            return;
        }
        break;
    case Command::Type::Signal:
    case Command::Type::Wait:
        // The stream is in order: the waits above and the signal below are
        // all there is.
        break;
    default:
        // Indirect launches and images (their appends are unsupported on
        // this backend).
        fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    if (c.signal != nullptr)
        write(stream_, c.signal->signal());
}

void Queue::finish() {
    makeCurrent(device_);
    checkCuda(cuda().cuStreamSynchronize(stream_));
}

void Queue::signalWhenDone(Signal &signal, Signal *also) {
    makeCurrent(device_);
    write(stream_, signal);
    if (also != nullptr)
        write(stream_, *also);
}

} // namespace ze_driver
