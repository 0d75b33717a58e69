// What a kernel gets for an image argument on the CUDA backend: the address
// of this descriptor in device memory (image.cpp). image_builtins.cl declares
// the same structure (ze_image_t); the two must agree field by field.
#pragma once

#include <cstdint>

namespace ze_driver {

struct ImageDescriptor {
    uint64_t pixels;              // device address of pixel (0, 0, 0)
    uint64_t rowPitch;            // bytes from one row to the next (1D arrays: layer)
    uint64_t slicePitch;          // bytes from one slice to the next (2D arrays: layer)
    int32_t extent[3];            // Image::extent: pixels, rows (or layers), slices (or layers)
    int32_t width, height, depth; // what kernels ask: 1 where the image has no such dimension
    int32_t arraySize;            // layers of an array, 0 otherwise
    int32_t channelType;          // image.hpp's channel values (OpenCL's)
    int32_t channelOrder;
    int32_t pixelBytes;
};
static_assert(sizeof(ImageDescriptor) == 64, "image_builtins.cl's ze_image_t");

} // namespace ze_driver
