// Images and samplers: the objects, their formats and regions, the entry
// points and the image copy appends, for both backends. What holds an
// image's pixels (ImageNative) and a sampler's state (SamplerNative) is the
// backend's (backend.hpp, "Images and samplers"); so is running the image
// commands (Command::Type::ImageCopy, ImageToMemory, ImageFromMemory).
#pragma once

#include "backend_native.hpp"
#include "object.hpp"

#include <optional>

struct _ze_command_list_dditable_t;
struct _ze_context_dditable_t;

namespace ze_driver {

class Context;
class Device;

// A pixel format as OpenCL C kernels see it: get_image_channel_data_type and
// get_image_channel_order return these values (OpenCL's CL_* constants).
namespace channel {
constexpr uint32_t kSnormInt8 = 0x10D0, kSnormInt16 = 0x10D1, kUnormInt8 = 0x10D2,
                   kUnormInt16 = 0x10D3, kSignedInt8 = 0x10D7, kSignedInt16 = 0x10D8,
                   kSignedInt32 = 0x10D9, kUnsignedInt8 = 0x10DA, kUnsignedInt16 = 0x10DB,
                   kUnsignedInt32 = 0x10DC, kHalfFloat = 0x10DD, kFloat = 0x10DE;
// Packed layouts: every component of a pixel in one 16- or 32-bit word, at
// the bits of Intel's GPU surface formats of that layout (R10G10B10A2,
// R11G11B10_FLOAT, B5G6R5, B5G5R5A1, B4G4R4A4: the component named first in
// the lowest bits); 10_10_10_2 FLOAT is three 10-bit unsigned floats and a
// 2-bit normalized alpha, 11_11_10 two 11-bit and one 10-bit unsigned
// floats. 5_6_5 has OpenCL's value (CL_UNORM_SHORT_565, the same bits). The
// others, and 32-bit normalized components, have none in OpenCL and take
// the driver's own, which only a backend that converts pixels itself holds
// (cuda/image_builtins.cl).
constexpr uint32_t kUnormShort565 = 0x10D4, kUnormShort5551 = 0x7E00, kUnormShort4444 = 0x7E01,
                   kUnormInt1010102 = 0x7E02, kSnormInt1010102 = 0x7E03,
                   kUnsignedInt1010102 = 0x7E04, kSignedInt1010102 = 0x7E05, kFloat1010102 = 0x7E06,
                   kFloat111110 = 0x7E07, kUnormInt32 = 0x7E08, kSnormInt32 = 0x7E09;
constexpr uint32_t kR = 0x10B0, kA = 0x10B1, kRG = 0x10B2, kRGB = 0x10B4, kRGBA = 0x10B5,
                   kBGRA = 0x10B6, kARGB = 0x10B7, kABGR = 0x10C3;
} // namespace channel

struct PixelFormat {
    uint32_t type;  // channel::k*Int*, kFloat, a packed layout's
    uint32_t order; // channel::kR ... kABGR
    size_t bytes;   // of one pixel
    // Whether a sampler may filter it linearly (OpenCL filters integer
    // images with nearest only).
    bool filtersLinearly() const;
};

// The format of `format`, or nothing when neither backend has it: media
// layouts, swizzles other than the channel orders above.
std::optional<PixelFormat> pixelFormat(const ze_image_format_t &format);

class Image : public Object {
public:
    static constexpr Tag kTag = Tag::Image;

    // UNSUPPORTED_IMAGE_FORMAT for what the device cannot hold,
    // INVALID_ARGUMENT for a size of 0.
    Image(Context *context, Device *device, const ze_image_desc_t &desc);
    ~Image();

    Context *context() const { return context_.get(); }
    Device *device() const { return device_; }
    const ze_image_desc_t &desc() const { return desc_; }
    const PixelFormat &format() const { return format_; }
    // Pixels along each of its dimensions: width, then height or the array's
    // slices, then depth or slices (1 where it has none; a buffer image's
    // width in pixels, not bytes).
    const size_t *extent() const { return extent_; }
    int dims() const { return dims_; }
    uint64_t id() const { return id_; }
    ImageNative &native() { return native_; }
    const ImageNative &native() const { return native_; }

    // The origin and size in pixels of `region`, or of the whole image when
    // it is null; INVALID_ARGUMENT when the region leaves the image.
    void region(const ze_image_region_t *region, size_t origin[3], size_t size[3]) const;

private:
    Ref<Context> context_;
    Device *device_;
    ze_image_desc_t desc_;
    PixelFormat format_;
    size_t extent_[3] = {1, 1, 1};
    int dims_ = 1;
    uint64_t id_;
    ImageNative native_;
};

// A sampler's state as OpenCL C encodes a sampler_t (CLK_* bits).
namespace sampler_bits {
constexpr uint32_t kNormalized = 0x1, kAddressNone = 0x0, kClampToEdge = 0x2, kClamp = 0x4,
                   kRepeat = 0x6, kMirroredRepeat = 0x8, kNearest = 0x10, kLinear = 0x20;
} // namespace sampler_bits

class Sampler : public Object {
public:
    static constexpr Tag kTag = Tag::Sampler;

    Sampler(Context *context, const ze_sampler_desc_t &desc);
    ~Sampler();
    Context *context() const { return context_.get(); }
    uint32_t bits() const { return bits_; }
    SamplerNative &native() { return native_; }
    const SamplerNative &native() const { return native_; }

private:
    Ref<Context> context_;
    uint32_t bits_;
    SamplerNative native_;
};

// The Context and CommandList table entries of images: residency, copies.
void imageContextEntries(_ze_context_dditable_t *table);
void imageCommandListEntries(_ze_command_list_dditable_t *table);

} // namespace ze_driver
