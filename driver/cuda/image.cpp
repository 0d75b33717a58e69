// The CUDA backend's images and samplers (../core/backend.hpp). An image's
// pixels are device memory of its device, rows and slices packed (a CUDA
// array would need texture and surface objects, one texture per image and
// sampler pair, where OpenCL C passes them apart); kernels get a descriptor
// of it in device memory, which the image builtins the translation links
// (image_builtins.cl) read, write and sample in software. A sampler is
// OpenCL C's sampler_t bits. Image copies are region copies of the pixels
// (queue.cpp).
#include "image.hpp"
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "image_descriptor.hpp"
#include "kernel.hpp"
#include "memory_release.hpp"

namespace ze_driver {

bool backend::imageSupported(Device &, ze_image_type_t, const PixelFormat &) {
    return true; // every format the core describes: the builtins convert in software
}

void backend::initImage(Image &image) {
    ImageNative &native = image.native();
    const size_t *extent = image.extent();
    native.rowPitch = extent[0] * image.format().bytes;
    native.slicePitch = native.rowPitch * extent[1];
    const size_t bytes = native.slicePitch * extent[2];
    check(bytes <= image.device()->info().properties.maxMemAllocSize,
          ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    makeCurrent(image.device());
    ze_cuda::CUdeviceptr pixels = 0, descriptor = 0;
    checkCuda(allocateDeviceMemory(image.device(), &pixels, bytes));
    native.pixels = reinterpret_cast<void *>(pixels);
    ImageDescriptor d = {};
    d.pixels = pixels;
    d.rowPitch = native.rowPitch;
    d.slicePitch = native.slicePitch;
    const ze_image_desc_t &desc = image.desc();
    for (int i = 0; i < 3; ++i)
        d.extent[i] = static_cast<int32_t>(extent[i]);
    d.width = static_cast<int32_t>(extent[0]);
    d.height = desc.type == ZE_IMAGE_TYPE_1DARRAY ? 1 : static_cast<int32_t>(extent[1]);
    d.depth = desc.type == ZE_IMAGE_TYPE_3D ? static_cast<int32_t>(extent[2]) : 1;
    d.arraySize = desc.type == ZE_IMAGE_TYPE_1DARRAY   ? static_cast<int32_t>(extent[1])
                  : desc.type == ZE_IMAGE_TYPE_2DARRAY ? static_cast<int32_t>(extent[2])
                                                       : 0;
    d.channelType = static_cast<int32_t>(image.format().type);
    d.channelOrder = static_cast<int32_t>(image.format().order);
    d.pixelBytes = static_cast<int32_t>(image.format().bytes);
    ze_cuda::CUresult r = allocateDeviceMemory(image.device(), &descriptor, sizeof(d));
    if (r == ze_cuda::CUDA_SUCCESS)
        r = cuda().cuMemcpyHtoD(descriptor, &d, sizeof(d));
    if (r != ze_cuda::CUDA_SUCCESS) {
        finishImage(image);
        checkCuda(r);
    }
    native.descriptor = reinterpret_cast<void *>(descriptor);
}

void backend::finishImage(Image &image) noexcept {
    ImageNative &native = image.native();
    for (void *memory : {native.pixels, native.descriptor})
        if (memory != nullptr)
            releaseDeviceMemory(image.device(), memory);
}

void backend::initSampler(Sampler &) {}

void backend::finishSampler(Sampler &) noexcept {}

// An image argument is its descriptor's device address; a sampler argument
// its sampler_t bits, in a 64-bit parameter (the translation's sampler_t is
// a pointer, image_builtins.cl reads the bits from it).
std::vector<uint8_t> backend::objectArgument(ArgKind kind, void *handle) {
    uint64_t value;
    if (kind == ArgKind::Image)
        value = reinterpret_cast<uintptr_t>(
            fromHandle<Image>(static_cast<ze_image_handle_t>(handle))->native().descriptor);
    else
        value = fromHandle<Sampler>(static_cast<ze_sampler_handle_t>(handle))->bits();
    const auto *bytes = reinterpret_cast<const uint8_t *>(&value);
    return std::vector<uint8_t>(bytes, bytes + sizeof(value));
}

} // namespace ze_driver
