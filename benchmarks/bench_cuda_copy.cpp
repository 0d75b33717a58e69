// Pitched copies through Level Zero on libze_cuda.so against the CUDA
// driver's own pitched copy (cuMemcpy3DAsync), on an NVIDIA GPU
// (scripts/gpu_check.sh runs it on the lent one; without one it says it
// skipped). Each side copies device memory to device memory and waits for
// the copy every iteration (the CUDA side cuStreamSynchronize; the Level Zero
// side its immediate list's barrier, event and host wait):
//  - Region2D: 8 KiB of each of 4,096 rows of a 16 KiB pitch
//    (zeCommandListAppendMemoryCopyRegion);
//  - Image2D: 64 MiB of packed memory into a 4096 x 4096 RGBA8 image
//    (zeCommandListAppendImageCopyFromMemory);
//  - Image3D: 64 MiB into a 256 x 256 x 256 RGBA8 image.
// The CUDA side copies the same rows packed. The target is bandwidth: each
// Level Zero copy at >= 0.95x CUDA's.
#include "bench_common.hpp"

#include "cuda_bench.hpp"

namespace {

using namespace ze_cuda;

constexpr size_t kRowBytes = 8192, kPitch = 16384, kRows = 4096;
constexpr uint32_t kImage2D = 4096, kImage3D = 256, kPixelBytes = 4;
constexpr size_t kImageBytes = size_t(kImage2D) * kImage2D * kPixelBytes;

const CudaApi *api = nullptr;

void checkCu(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "%s: %s\n", what, api->describe(r).c_str());
        std::abort();
    }
}

struct RawCuda {
    CUcontext context = nullptr;
    CUstream stream = nullptr;
    CUdeviceptr src = 0, dst = 0; // kImageBytes each, at least kPitch * kRows
    RawCuda() {
        CUdevice device = 0;
        checkCu(api->cuDeviceGet(&device, 0), "cuDeviceGet");
        checkCu(api->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
        checkCu(api->cuCtxSetCurrent(context), "cuCtxSetCurrent");
        checkCu(api->cuMemAlloc(&src, kImageBytes), "cuMemAlloc");
        checkCu(api->cuMemAlloc(&dst, kImageBytes), "cuMemAlloc");
        checkCu(api->cuMemsetD8Async(src, 7, kImageBytes, nullptr), "cuMemsetD8Async");
        checkCu(api->cuCtxSynchronize(), "cuCtxSynchronize");
        checkCu(api->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    }
    // width bytes of height rows of depth slices, pitched.
    void copy(size_t width, size_t height, size_t depth, size_t srcPitch, size_t dstPitch) {
        CudaMemcpy3D c = {};
        c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        c.srcDevice = src;
        c.srcPitch = srcPitch;
        c.srcHeight = height;
        c.dstDevice = dst;
        c.dstPitch = dstPitch;
        c.dstHeight = height;
        c.WidthInBytes = width;
        c.Height = height;
        c.Depth = depth;
        checkCu(api->cuMemcpy3DAsync(&c, stream), "cuMemcpy3DAsync");
        checkCu(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
    }
};

RawCuda &raw() {
    static RawCuda r;
    return r;
}

struct L0 {
    bench::ZeSetup ze;
    void *src = nullptr, *dst = nullptr;
    ze_image_handle_t image2D = nullptr, image3D = nullptr;
    L0() {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        BENCH_ZE(zeMemAllocDevice(ze.context, &desc, kImageBytes, 0, ze.device, &src));
        BENCH_ZE(zeMemAllocDevice(ze.context, &desc, kImageBytes, 0, ze.device, &dst));
        const uint8_t seven = 7;
        BENCH_ZE(zeCommandListAppendMemoryFill(ze.list, src, &seven, 1, kImageBytes, nullptr, 0,
                                               nullptr));
        image2D = image(ZE_IMAGE_TYPE_2D, kImage2D, kImage2D, 1);
        image3D = image(ZE_IMAGE_TYPE_3D, kImage3D, kImage3D, kImage3D);
        ze.syncList();
    }
    ze_image_handle_t image(ze_image_type_t type, uint32_t width, uint32_t height,
                            uint32_t depth) const {
        ze_image_desc_t desc = {ZE_STRUCTURE_TYPE_IMAGE_DESC};
        desc.type = type;
        desc.format = {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM,
                       ZE_IMAGE_FORMAT_SWIZZLE_R,      ZE_IMAGE_FORMAT_SWIZZLE_G,
                       ZE_IMAGE_FORMAT_SWIZZLE_B,      ZE_IMAGE_FORMAT_SWIZZLE_A};
        desc.width = width;
        desc.height = height;
        desc.depth = depth;
        ze_image_handle_t handle = nullptr;
        BENCH_ZE(zeImageCreate(ze.context, ze.device, &desc, &handle));
        return handle;
    }
    void copyRegion() {
        const ze_copy_region_t region = {0, 0, 0, uint32_t(kRowBytes), uint32_t(kRows), 1};
        BENCH_ZE(zeCommandListAppendMemoryCopyRegion(ze.list, dst, &region, kPitch, 0, src, &region,
                                                     kPitch, 0, nullptr, 0, nullptr));
        ze.syncList();
    }
    void copyIntoImage(ze_image_handle_t image) {
        BENCH_ZE(zeCommandListAppendImageCopyFromMemory(ze.list, image, src, nullptr, nullptr, 0,
                                                        nullptr));
        ze.syncList();
    }
};

L0 &l0() {
    static L0 s;
    return s;
}

template <class Copy> void run(benchmark::State &state, size_t bytes, Copy copy) {
    copy();
    for (auto _ : state)
        copy();
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
}

void Region2D_Cuda(benchmark::State &state) {
    run(state, kRowBytes * kRows, [] { raw().copy(kRowBytes, kRows, 1, kPitch, kPitch); });
}
void Region2D_L0(benchmark::State &state) {
    run(state, kRowBytes * kRows, [] { l0().copyRegion(); });
}
void Image2D_Cuda(benchmark::State &state) {
    const size_t row = size_t(kImage2D) * kPixelBytes;
    run(state, kImageBytes, [row] { raw().copy(row, kImage2D, 1, row, row); });
}
void Image2D_L0(benchmark::State &state) {
    run(state, kImageBytes, [] { l0().copyIntoImage(l0().image2D); });
}
void Image3D_Cuda(benchmark::State &state) {
    const size_t row = size_t(kImage3D) * kPixelBytes;
    run(state, kImageBytes, [row] { raw().copy(row, kImage3D, kImage3D, row, row); });
}
void Image3D_L0(benchmark::State &state) {
    run(state, kImageBytes, [] { l0().copyIntoImage(l0().image3D); });
}

} // namespace

BENCHMARK(Region2D_Cuda)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Region2D_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Image2D_Cuda)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Image2D_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Image3D_Cuda)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Image3D_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    api = bench::cudaWithGpus(1);
    if (api == nullptr)
        return 0;
    bench::useBuiltDriver();
    return bench::runWithSummary(
        argc, argv,
        {{"Region2D_L0", "Region2D_Cuda", 0.95, Metric::realTime, /*higherIsBetter=*/true},
         {"Image2D_L0", "Image2D_Cuda", 0.95, Metric::realTime, /*higherIsBetter=*/true},
         {"Image3D_L0", "Image3D_Cuda", 0.95, Metric::realTime, /*higherIsBetter=*/true}});
}
