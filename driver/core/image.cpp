// Images and samplers: formats, regions, the entry points, the image copy
// appends, and the Image and Sampler DDI tables.
#include "image.hpp"

#include "backend.hpp"
#include "command_list.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>

namespace ze_driver {

namespace {

// The data type of one component of `layout` in `type`, or 0.
uint32_t channelType(ze_image_format_layout_t layout, ze_image_format_type_t type) {
    switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT:
            return channel::kUnsignedInt8;
        case ZE_IMAGE_FORMAT_TYPE_SINT:
            return channel::kSignedInt8;
        case ZE_IMAGE_FORMAT_TYPE_UNORM:
            return channel::kUnormInt8;
        case ZE_IMAGE_FORMAT_TYPE_SNORM:
            return channel::kSnormInt8;
        default:
            return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT:
            return channel::kUnsignedInt16;
        case ZE_IMAGE_FORMAT_TYPE_SINT:
            return channel::kSignedInt16;
        case ZE_IMAGE_FORMAT_TYPE_UNORM:
            return channel::kUnormInt16;
        case ZE_IMAGE_FORMAT_TYPE_SNORM:
            return channel::kSnormInt16;
        case ZE_IMAGE_FORMAT_TYPE_FLOAT:
            return channel::kHalfFloat;
        default:
            return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_32:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT:
            return channel::kUnsignedInt32;
        case ZE_IMAGE_FORMAT_TYPE_SINT:
            return channel::kSignedInt32;
        case ZE_IMAGE_FORMAT_TYPE_UNORM:
            return channel::kUnormInt32;
        case ZE_IMAGE_FORMAT_TYPE_SNORM:
            return channel::kSnormInt32;
        case ZE_IMAGE_FORMAT_TYPE_FLOAT:
            return channel::kFloat;
        default:
            return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT:
            return channel::kUnsignedInt1010102;
        case ZE_IMAGE_FORMAT_TYPE_SINT:
            return channel::kSignedInt1010102;
        case ZE_IMAGE_FORMAT_TYPE_UNORM:
            return channel::kUnormInt1010102;
        case ZE_IMAGE_FORMAT_TYPE_SNORM:
            return channel::kSnormInt1010102;
        case ZE_IMAGE_FORMAT_TYPE_FLOAT:
            return channel::kFloat1010102;
        default:
            return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_11_11_10:
        return type == ZE_IMAGE_FORMAT_TYPE_FLOAT ? channel::kFloat111110 : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
        return type == ZE_IMAGE_FORMAT_TYPE_UNORM ? channel::kUnormShort565 : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
        return type == ZE_IMAGE_FORMAT_TYPE_UNORM ? channel::kUnormShort5551 : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4:
        return type == ZE_IMAGE_FORMAT_TYPE_UNORM ? channel::kUnormShort4444 : 0;
    default:
        return 0; // media layouts
    }
}

// The bytes of one pixel of a packed layout's `type`, 0 for the others.
size_t packedBytes(uint32_t type) {
    switch (type) {
    case channel::kUnormShort565:
    case channel::kUnormShort5551:
    case channel::kUnormShort4444:
        return 2;
    case channel::kUnormInt1010102:
    case channel::kSnormInt1010102:
    case channel::kUnsignedInt1010102:
    case channel::kSignedInt1010102:
    case channel::kFloat1010102:
    case channel::kFloat111110:
        return 4;
    default:
        return 0;
    }
}

// The channel order of `format`, or 0. A swizzle names, for each channel a
// read returns, the component of memory it comes from; OpenCL's orders are
// the same mapping seen from memory (BGRA stores B, G, R, A and returns r
// from the third component, as the swizzle B, G, R, A does).
uint32_t channelOrder(const ze_image_format_t &format) {
    using S = ze_image_format_swizzle_t;
    const std::array<S, 4> swizzle = {format.x, format.y, format.z, format.w};
    auto is = [&](S x, S y, S z, S w) { return swizzle == std::array<S, 4>{x, y, z, w}; };
    const S R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G,
            B = ZE_IMAGE_FORMAT_SWIZZLE_B, A = ZE_IMAGE_FORMAT_SWIZZLE_A;
    switch (format.layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32:
        // One component: read as red, or (swizzled into w) as alpha.
        if (format.x == R)
            return channel::kR;
        if (format.w == R)
            return channel::kA;
        return 0;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
        return format.x == R && format.y == G ? channel::kRG : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
    case ZE_IMAGE_FORMAT_LAYOUT_11_11_10:
        // Three components: the fourth swizzle has none to name.
        return format.x == R && format.y == G && format.z == B ? channel::kRGB : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
    case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
    case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
    case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4:
        if (is(R, G, B, A))
            return channel::kRGBA;
        if (is(B, G, R, A))
            return channel::kBGRA;
        if (is(G, B, A, R))
            return channel::kARGB;
        if (is(A, B, G, R))
            return channel::kABGR;
        return 0;
    default:
        return 0;
    }
}

size_t componentBytes(uint32_t type) {
    switch (type) {
    case channel::kUnsignedInt8:
    case channel::kSignedInt8:
    case channel::kUnormInt8:
    case channel::kSnormInt8:
        return 1;
    case channel::kUnsignedInt16:
    case channel::kSignedInt16:
    case channel::kUnormInt16:
    case channel::kSnormInt16:
    case channel::kHalfFloat:
        return 2;
    default:
        return 4;
    }
}

size_t components(uint32_t order) {
    switch (order) {
    case channel::kR:
    case channel::kA:
        return 1;
    case channel::kRG:
        return 2;
    default:
        return 4;
    }
}

} // namespace

bool PixelFormat::filtersLinearly() const {
    switch (type) {
    case channel::kUnormInt8:
    case channel::kUnormInt16:
    case channel::kSnormInt8:
    case channel::kSnormInt16:
    case channel::kUnormInt32:
    case channel::kSnormInt32:
    case channel::kHalfFloat:
    case channel::kFloat:
    case channel::kUnormShort565:
    case channel::kUnormShort5551:
    case channel::kUnormShort4444:
    case channel::kUnormInt1010102:
    case channel::kSnormInt1010102:
    case channel::kFloat1010102:
    case channel::kFloat111110:
        return true;
    default:
        return false;
    }
}

std::optional<PixelFormat> pixelFormat(const ze_image_format_t &format) {
    PixelFormat f;
    f.type = channelType(format.layout, format.type);
    f.order = channelOrder(format);
    if (f.type == 0 || f.order == 0)
        return std::nullopt;
    f.bytes = packedBytes(f.type);
    if (f.bytes == 0)
        f.bytes = componentBytes(f.type) * components(f.order);
    return f;
}

namespace {

// The format of an image of `desc` on `device`, if it can hold one.
PixelFormat supportedFormat(Device &device, const ze_image_desc_t &desc) {
    check(desc.type <= ZE_IMAGE_TYPE_BUFFER, ZE_RESULT_ERROR_INVALID_ENUMERATION);
    std::optional<PixelFormat> format = pixelFormat(desc.format);
    check(format && backend::imageSupported(device, desc.type, *format),
          ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    return *format;
}

} // namespace

Image::Image(Context *context, Device *device, const ze_image_desc_t &desc)
    : Object(kTag), context_(context), device_(device), desc_(desc),
      format_(supportedFormat(*device, desc)) {
    static std::atomic<uint64_t> nextId{1};
    id_ = nextId++;
    desc_.pNext = nullptr; // not the application's to keep
    check(desc.width > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    extent_[0] = desc.width;
    switch (desc.type) {
    case ZE_IMAGE_TYPE_1DARRAY:
        extent_[1] = desc.arraylevels;
        dims_ = 2;
        break;
    case ZE_IMAGE_TYPE_2D:
        extent_[1] = desc.height;
        dims_ = 2;
        break;
    case ZE_IMAGE_TYPE_2DARRAY:
        extent_[1] = desc.height;
        extent_[2] = desc.arraylevels;
        dims_ = 3;
        break;
    case ZE_IMAGE_TYPE_3D:
        extent_[1] = desc.height;
        extent_[2] = desc.depth;
        dims_ = 3;
        break;
    case ZE_IMAGE_TYPE_BUFFER:
        // The width is in bytes; the image counts pixels.
        extent_[0] = desc.width / format_.bytes;
        check(extent_[0] > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        break;
    default:
        break;
    }
    check(extent_[1] > 0 && extent_[2] > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    backend::initImage(*this);
}

Image::~Image() {
    backend::finishImage(*this);
}

void Image::region(const ze_image_region_t *region, size_t origin[3], size_t size[3]) const {
    for (int i = 0; i < 3; ++i) {
        origin[i] = 0;
        size[i] = extent_[i];
    }
    if (region == nullptr)
        return;
    const uint32_t o[3] = {region->originX, region->originY, region->originZ};
    const uint32_t s[3] = {region->width, region->height, region->depth};
    for (int i = 0; i < dims_; ++i) {
        // Dimensions the image does not have keep origin 0 and size 1,
        // whatever the region says (a 2D region may give depth 0, or a z).
        origin[i] = o[i];
        size[i] = s[i];
        check(s[i] > 0 && uint64_t(o[i]) + s[i] <= extent_[i], ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
}

namespace {

uint32_t addressingBits(ze_sampler_address_mode_t mode, bool normalized) {
    using namespace sampler_bits;
    switch (mode) {
    case ZE_SAMPLER_ADDRESS_MODE_NONE:
        return kAddressNone;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP:
        return kClampToEdge;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
        return kClamp;
    case ZE_SAMPLER_ADDRESS_MODE_REPEAT:
    case ZE_SAMPLER_ADDRESS_MODE_MIRROR:
        // Wrapping is defined on normalized coordinates only. Level Zero
        // accepts the sampler either way (OpenCL refuses it), and such a
        // sampler reads as one without address mode, which is also what the
        // coordinates of a read inside the image give.
        if (!normalized)
            return kAddressNone;
        return mode == ZE_SAMPLER_ADDRESS_MODE_REPEAT ? kRepeat : kMirroredRepeat;
    default:
        fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

uint32_t filterBits(ze_sampler_filter_mode_t mode) {
    switch (mode) {
    case ZE_SAMPLER_FILTER_MODE_NEAREST:
        return sampler_bits::kNearest;
    case ZE_SAMPLER_FILTER_MODE_LINEAR:
        return sampler_bits::kLinear;
    default:
        fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

} // namespace

Sampler::Sampler(Context *context, const ze_sampler_desc_t &desc)
    : Object(kTag), context_(context),
      bits_((desc.isNormalized ? sampler_bits::kNormalized : 0) |
            addressingBits(desc.addressMode, desc.isNormalized) | filterBits(desc.filterMode)) {
    backend::initSampler(*this);
}

Sampler::~Sampler() {
    backend::finishSampler(*this);
}

namespace {

ze_result_t ZE_APICALL zeImageGetProperties(ze_device_handle_t hDevice, const ze_image_desc_t *desc,
                                            ze_image_properties_t *pImageProperties) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        notNull(desc);
        notNull(pImageProperties);
        PixelFormat format = supportedFormat(*device, *desc);
        pImageProperties->samplerFilterFlags = ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT;
        if (format.filtersLinearly())
            pImageProperties->samplerFilterFlags |= ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeImageCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     const ze_image_desc_t *desc, ze_image_handle_t *phImage) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(desc);
        notNull(phImage);
        auto image = std::make_unique<Image>(context, device, *desc);
        *phImage = toHandle<Image, ze_image_handle_t>(image.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeImageDestroy(ze_image_handle_t hImage) {
    return boundary(__func__, [&] {
        delete fromHandle<Image>(hImage);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeImageGetAllocPropertiesExt(ze_context_handle_t hContext,
                                                    ze_image_handle_t hImage,
                                                    ze_image_allocation_ext_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext);
        notNull(p)->id = fromHandle<Image>(hImage)->id();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeSamplerCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                       const ze_sampler_desc_t *desc,
                                       ze_sampler_handle_t *phSampler) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        context->deviceOf(hDevice);
        notNull(desc);
        notNull(phSampler);
        auto sampler = std::make_unique<Sampler>(context, *desc);
        *phSampler = toHandle<Sampler, ze_sampler_handle_t>(sampler.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeSamplerDestroy(ze_sampler_handle_t hSampler) {
    return boundary(__func__, [&] {
        delete fromHandle<Sampler>(hSampler);
        return ZE_RESULT_SUCCESS;
    });
}

// Images, like memory, are always resident.
ze_result_t checkResidencyOfImage(const char *entry, ze_context_handle_t hContext,
                                  ze_device_handle_t hDevice, ze_image_handle_t hImage) {
    return boundary(entry, [&] {
        fromHandle<Context>(hContext);
        fromHandle<Device>(hDevice);
        fromHandle<Image>(hImage);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeContextMakeImageResident(ze_context_handle_t hContext,
                                                  ze_device_handle_t hDevice,
                                                  ze_image_handle_t hImage) {
    return checkResidencyOfImage(__func__, hContext, hDevice, hImage);
}

ze_result_t ZE_APICALL zeContextEvictImage(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           ze_image_handle_t hImage) {
    return checkResidencyOfImage(__func__, hContext, hDevice, hImage);
}

// Image copies. Regions are in pixels; a null region is the whole image.
// The regions of a copy between images must be the same size; the copy
// goes where the destination region starts.
ze_result_t appendImageCopy(const char *entry, ze_command_list_handle_t hCommandList,
                            ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
                            const ze_image_region_t *pDstRegion,
                            const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent,
                            uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *dst = fromHandle<Image>(hDstImage);
        Image *src = fromHandle<Image>(hSrcImage);
        check(dst->format().bytes == src->format().bytes, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        Command c =
            makeCommand(list, Command::Type::ImageCopy, hSignalEvent, numWaitEvents, phWaitEvents);
        size_t dstPixels[3];
        src->region(pSrcRegion, c.srcOrigin, c.pixels);
        dst->region(pDstRegion, c.dstOrigin, dstPixels);
        check(std::equal(c.pixels, c.pixels + 3, dstPixels), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        c.dstImage = dst;
        c.srcImage = src;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyRegion(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
    const ze_image_region_t *pDstRegion, const ze_image_region_t *pSrcRegion,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageCopy(__func__, hCommandList, hDstImage, hSrcImage, pDstRegion, pSrcRegion,
                           hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopy(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageCopy(__func__, hCommandList, hDstImage, hSrcImage, nullptr, nullptr,
                           hSignalEvent, numWaitEvents, phWaitEvents);
}

// Pitches of 0 are rows and slices packed.
ze_result_t appendImageToMemory(const char *entry, ze_command_list_handle_t hCommandList,
                                void *dstptr, ze_image_handle_t hSrcImage,
                                const ze_image_region_t *pSrcRegion, uint32_t destRowPitch,
                                uint32_t destSlicePitch, ze_event_handle_t hSignalEvent,
                                uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *src = fromHandle<Image>(hSrcImage);
        Command c = makeCommand(list, Command::Type::ImageToMemory, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.dst = notNull(dstptr);
        src->region(pSrcRegion, c.srcOrigin, c.pixels);
        c.srcImage = src;
        c.dstPitch = destRowPitch;
        c.dstSlicePitch = destSlicePitch;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemory(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageToMemory(__func__, hCommandList, dstptr, hSrcImage, pSrcRegion, 0, 0,
                               hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemoryExt(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t *pSrcRegion, uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageToMemory(__func__, hCommandList, dstptr, hSrcImage, pSrcRegion, destRowPitch,
                               destSlicePitch, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t appendImageFromMemory(const char *entry, ze_command_list_handle_t hCommandList,
                                  ze_image_handle_t hDstImage, const void *srcptr,
                                  const ze_image_region_t *pDstRegion, uint32_t srcRowPitch,
                                  uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                  uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *dst = fromHandle<Image>(hDstImage);
        Command c = makeCommand(list, Command::Type::ImageFromMemory, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.src = notNull(srcptr);
        dst->region(pDstRegion, c.dstOrigin, c.pixels);
        c.dstImage = dst;
        c.srcPitch = srcRowPitch;
        c.srcSlicePitch = srcSlicePitch;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemory(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void *srcptr,
    const ze_image_region_t *pDstRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageFromMemory(__func__, hCommandList, hDstImage, srcptr, pDstRegion, 0, 0,
                                 hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemoryExt(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void *srcptr,
    const ze_image_region_t *pDstRegion, uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageFromMemory(__func__, hCommandList, hDstImage, srcptr, pDstRegion, srcRowPitch,
                                 srcSlicePitch, hSignalEvent, numWaitEvents, phWaitEvents);
}

} // namespace

void imageContextEntries(ze_context_dditable_t *t) {
    t->pfnMakeImageResident = zeContextMakeImageResident;
    t->pfnEvictImage = zeContextEvictImage;
}

void imageCommandListEntries(ze_command_list_dditable_t *t) {
    t->pfnAppendImageCopy = zeCommandListAppendImageCopy;
    t->pfnAppendImageCopyRegion = zeCommandListAppendImageCopyRegion;
    t->pfnAppendImageCopyToMemory = zeCommandListAppendImageCopyToMemory;
    t->pfnAppendImageCopyFromMemory = zeCommandListAppendImageCopyFromMemory;
    t->pfnAppendImageCopyToMemoryExt = zeCommandListAppendImageCopyToMemoryExt;
    t->pfnAppendImageCopyFromMemoryExt = zeCommandListAppendImageCopyFromMemoryExt;
}

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t version,
                                                            ze_image_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnGetProperties = zeImageGetProperties;
    t->pfnCreate = zeImageCreate;
    t->pfnDestroy = zeImageDestroy;
    t->pfnGetAllocPropertiesExt = zeImageGetAllocPropertiesExt;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t version,
                                                              ze_sampler_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeSamplerCreate;
    t->pfnDestroy = zeSamplerDestroy;
    return ZE_RESULT_SUCCESS;
}

} // extern "C"

} // namespace ze_driver
