// Images: an OpenCL image of the driver's OpenCL context, described by the
// L0 image descriptor it was created from. Kernels take it as an image
// argument; the image copy commands (queue.cpp) read and write it.
#pragma once

#include "backend_native.hpp"

#include <level_zero/ze_ddi.h>

#include <optional>

namespace ze_driver {

class Context;

// The OpenCL image that represents `desc`, or nothing when OpenCL has no
// equivalent (formats and types the device cannot hold: media layouts, two
// channels, swizzles other than the four channel orders OpenCL names).
struct ClImageType {
    cl_image_format format;
    cl_mem_object_type type;
};
std::optional<ClImageType> clImageType(const ze_image_desc_t &desc);

// Whether the devices of `context` can hold images of `type`.
bool deviceSupports(cl_context context, const ClImageType &type);

class Image : public Object {
public:
    static constexpr Tag kTag = Tag::Image;

    // UNSUPPORTED_IMAGE_FORMAT for what the device cannot hold.
    Image(Context *context, const ze_image_desc_t &desc);
    ~Image();

    cl_mem cl() const { return cl_; }
    uint64_t id() const { return id_; }
    // The OpenCL origin and size of `region`, or of the whole image when it
    // is null; INVALID_ARGUMENT when the region leaves the image.
    void clRegion(const ze_image_region_t *region, size_t origin[3], size_t size[3]) const;

private:
    Ref<Context> context_;
    cl_mem cl_ = nullptr;
    size_t extent_[3] = {1, 1, 1}; // OpenCL's view: width, then height or slices, then depth or slices
    int dims_ = 1;                 // how many of them the image has
    uint64_t id_;
};

} // namespace ze_driver
