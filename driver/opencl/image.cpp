// Images on OpenCL images, and the Image DDI table.
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
#include <vector>

namespace ze_driver {

namespace {

// The OpenCL data type of one component of `layout` in `type`, or 0.
cl_channel_type channelType(ze_image_format_layout_t layout, ze_image_format_type_t type) {
    switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT: return CL_UNSIGNED_INT8;
        case ZE_IMAGE_FORMAT_TYPE_SINT: return CL_SIGNED_INT8;
        case ZE_IMAGE_FORMAT_TYPE_UNORM: return CL_UNORM_INT8;
        case ZE_IMAGE_FORMAT_TYPE_SNORM: return CL_SNORM_INT8;
        default: return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT: return CL_UNSIGNED_INT16;
        case ZE_IMAGE_FORMAT_TYPE_SINT: return CL_SIGNED_INT16;
        case ZE_IMAGE_FORMAT_TYPE_UNORM: return CL_UNORM_INT16;
        case ZE_IMAGE_FORMAT_TYPE_SNORM: return CL_SNORM_INT16;
        // No CL_HALF_FLOAT: PoCL 3.1's CPU device lists it, but its kernels
        // read and write wrong values (a pixel of 1.0 comes back as 0x0470
        // through read_imagef and write_imagef), and nothing tells such a
        // device from one that works.
        default: return 0;
        }
    case ZE_IMAGE_FORMAT_LAYOUT_32:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
        switch (type) {
        case ZE_IMAGE_FORMAT_TYPE_UINT: return CL_UNSIGNED_INT32;
        case ZE_IMAGE_FORMAT_TYPE_SINT: return CL_SIGNED_INT32;
        case ZE_IMAGE_FORMAT_TYPE_FLOAT: return CL_FLOAT;
        default: return 0;
        }
    default:
        return 0; // packed and media layouts have no OpenCL equivalent
    }
}

// The OpenCL channel order of `format`, or 0. A swizzle names, for each
// channel a read returns, the component of memory it comes from; OpenCL's
// orders are the same mapping seen from memory (CL_BGRA stores B, G, R, A
// and returns r from the third component, as the swizzle B, G, R, A does).
cl_channel_order channelOrder(const ze_image_format_t &format) {
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
            return CL_R;
        if (format.w == R)
            return CL_A;
        return 0;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
        return format.x == R && format.y == G ? CL_RG : 0;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
        if (is(R, G, B, A))
            return CL_RGBA;
        if (is(B, G, R, A))
            return CL_BGRA;
        if (is(G, B, A, R))
            return CL_ARGB;
        if (is(A, B, G, R))
            return CL_ABGR;
        return 0;
    default:
        return 0;
    }
}

cl_mem_object_type clObjectType(ze_image_type_t type) {
    switch (type) {
    case ZE_IMAGE_TYPE_1D: return CL_MEM_OBJECT_IMAGE1D;
    case ZE_IMAGE_TYPE_1DARRAY: return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case ZE_IMAGE_TYPE_2D: return CL_MEM_OBJECT_IMAGE2D;
    case ZE_IMAGE_TYPE_2DARRAY: return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case ZE_IMAGE_TYPE_3D: return CL_MEM_OBJECT_IMAGE3D;
    case ZE_IMAGE_TYPE_BUFFER: return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    default: fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

// Every image is readable and writable by kernels: L0's flags are hints, and
// an image the application writes with a kernel despite them still works.
constexpr cl_mem_flags kImageFlags = CL_MEM_READ_WRITE;

bool filtersLinearly(cl_channel_type type) {
    switch (type) {
    case CL_UNORM_INT8:
    case CL_UNORM_INT16:
    case CL_SNORM_INT8:
    case CL_SNORM_INT16:
    case CL_FLOAT:
        return true;
    default:
        return false; // OpenCL filters integer images with nearest only
    }
}

size_t pixelBytes(const cl_image_format &format) {
    size_t component = 4;
    switch (format.image_channel_data_type) {
    case CL_UNSIGNED_INT8:
    case CL_SIGNED_INT8:
    case CL_UNORM_INT8:
    case CL_SNORM_INT8:
        component = 1;
        break;
    case CL_UNSIGNED_INT16:
    case CL_SIGNED_INT16:
    case CL_UNORM_INT16:
    case CL_SNORM_INT16:
        component = 2;
        break;
    }
    switch (format.image_channel_order) {
    case CL_R:
    case CL_A:
        return component;
    case CL_RG:
        return 2 * component;
    default:
        return 4 * component;
    }
}

// OpenCL's refusals of an image, in L0 terms.
void checkImageCreation(cl_int err) {
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        fail(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    if (err == CL_INVALID_IMAGE_SIZE || err == CL_INVALID_IMAGE_DESCRIPTOR)
        fail(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    checkCl(err);
}

} // namespace

std::optional<ClImageType> clImageType(const ze_image_desc_t &desc) {
    ClImageType t;
    t.type = clObjectType(desc.type);
    t.format.image_channel_data_type = channelType(desc.format.layout, desc.format.type);
    t.format.image_channel_order = channelOrder(desc.format);
    if (t.format.image_channel_data_type == 0 || t.format.image_channel_order == 0)
        return std::nullopt;
    return t;
}

bool deviceSupports(cl_context context, const ClImageType &type) {
    cl_uint count = 0;
    checkCl(clGetSupportedImageFormats(context, kImageFlags, type.type, 0, nullptr, &count));
    std::vector<cl_image_format> formats(count);
    checkCl(clGetSupportedImageFormats(context, kImageFlags, type.type, count, formats.data(),
                                       nullptr));
    return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format &f) {
        return f.image_channel_order == type.format.image_channel_order &&
               f.image_channel_data_type == type.format.image_channel_data_type;
    });
}

Image::Image(Context *context, const ze_image_desc_t &desc)
    : Object(kTag), context_(context) {
    static std::atomic<uint64_t> nextId{1};
    id_ = nextId++;
    std::optional<ClImageType> type = clImageType(desc);
    check(type && deviceSupports(context->native().cl, *type), ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    check(desc.width > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);

    cl_image_desc cl = {};
    cl.image_type = type->type;
    cl.image_width = desc.width;
    extent_[0] = desc.width;
    switch (desc.type) {
    case ZE_IMAGE_TYPE_1DARRAY:
        cl.image_array_size = extent_[1] = desc.arraylevels;
        dims_ = 2;
        break;
    case ZE_IMAGE_TYPE_2D:
        cl.image_height = extent_[1] = desc.height;
        dims_ = 2;
        break;
    case ZE_IMAGE_TYPE_2DARRAY:
        cl.image_height = extent_[1] = desc.height;
        cl.image_array_size = extent_[2] = desc.arraylevels;
        dims_ = 3;
        break;
    case ZE_IMAGE_TYPE_3D:
        cl.image_height = extent_[1] = desc.height;
        cl.image_depth = extent_[2] = desc.depth;
        dims_ = 3;
        break;
    default:
        break;
    }
    check(extent_[1] > 0 && extent_[2] > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);

    cl_int err = CL_SUCCESS;
    if (desc.type == ZE_IMAGE_TYPE_BUFFER) {
        // The width is in bytes; OpenCL's buffer image counts pixels.
        cl_mem buffer = clCreateBuffer(context->native().cl, kImageFlags, desc.width, nullptr, &err);
        checkImageCreation(err);
        cl.buffer = buffer;
        cl.image_width = extent_[0] = desc.width / pixelBytes(type->format);
        cl_ = clCreateImage(context->native().cl, kImageFlags, &type->format, &cl, nullptr, &err);
        clReleaseMemObject(buffer); // the image keeps it
    } else {
        cl_ = clCreateImage(context->native().cl, kImageFlags, &type->format, &cl, nullptr, &err);
    }
    checkImageCreation(err);
}

Image::~Image() {
    clReleaseMemObject(cl_);
}

void Image::clRegion(const ze_image_region_t *region, size_t origin[3], size_t size[3]) const {
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

ze_result_t ZE_APICALL zeImageGetProperties(ze_device_handle_t hDevice, const ze_image_desc_t *desc,
                                            ze_image_properties_t *pImageProperties) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        notNull(desc);
        notNull(pImageProperties);
        std::optional<ClImageType> type = clImageType(*desc);
        std::unique_ptr<_cl_context, decltype(&clReleaseContext)> context(
            retainClContext(device->driver()), clReleaseContext);
        check(type && deviceSupports(context.get(), *type),
              ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
        pImageProperties->samplerFilterFlags = ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT;
        if (filtersLinearly(type->format.image_channel_data_type))
            pImageProperties->samplerFilterFlags |= ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeImageCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     const ze_image_desc_t *desc, ze_image_handle_t *phImage) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        context->deviceOf(hDevice);
        notNull(desc);
        notNull(phImage);
        auto image = std::make_unique<Image>(context, *desc);
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

} // namespace

namespace {

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
        Command c =
            makeCommand(list, Command::Type::ImageCopy, hSignalEvent, numWaitEvents, phWaitEvents);
        size_t dstRegion[3];
        src->clRegion(pSrcRegion, c.native.srcOrigin, c.native.region);
        dst->clRegion(pDstRegion, c.native.dstOrigin, dstRegion);
        check(std::equal(c.native.region, c.native.region + 3, dstRegion), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        c.native.dstImage = dst->cl();
        c.native.srcImage = src->cl();
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyRegion(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    ze_image_handle_t hSrcImage, const ze_image_region_t *pDstRegion,
    const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageCopy(__func__, hCommandList, hDstImage, hSrcImage, pDstRegion, pSrcRegion,
                           hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopy(ze_command_list_handle_t hCommandList,
                                                    ze_image_handle_t hDstImage,
                                                    ze_image_handle_t hSrcImage,
                                                    ze_event_handle_t hSignalEvent,
                                                    uint32_t numWaitEvents,
                                                    ze_event_handle_t *phWaitEvents) {
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
        src->clRegion(pSrcRegion, c.native.srcOrigin, c.native.region);
        c.native.srcImage = src->cl();
        c.native.rowPitch = destRowPitch;
        c.native.slicePitch = destSlicePitch;
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
    return appendImageToMemory(__func__, hCommandList, dstptr, hSrcImage, pSrcRegion,
                               destRowPitch, destSlicePitch, hSignalEvent, numWaitEvents,
                               phWaitEvents);
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
        dst->clRegion(pDstRegion, c.native.dstOrigin, c.native.region);
        c.native.dstImage = dst->cl();
        c.native.rowPitch = srcRowPitch;
        c.native.slicePitch = srcSlicePitch;
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
    return appendImageFromMemory(__func__, hCommandList, hDstImage, srcptr, pDstRegion,
                                 srcRowPitch, srcSlicePitch, hSignalEvent, numWaitEvents,
                                 phWaitEvents);
}

} // namespace

// What this backend adds to the core's CommandList table: the image copies.
void backend::completeCommandListTable(ze_command_list_dditable_t *t) {
    t->pfnAppendImageCopy = zeCommandListAppendImageCopy;
    t->pfnAppendImageCopyRegion = zeCommandListAppendImageCopyRegion;
    t->pfnAppendImageCopyToMemory = zeCommandListAppendImageCopyToMemory;
    t->pfnAppendImageCopyFromMemory = zeCommandListAppendImageCopyFromMemory;
    t->pfnAppendImageCopyToMemoryExt = zeCommandListAppendImageCopyToMemoryExt;
    t->pfnAppendImageCopyFromMemoryExt = zeCommandListAppendImageCopyFromMemoryExt;
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t version,
                                                                      ze_image_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnGetProperties = zeImageGetProperties;
    t->pfnCreate = zeImageCreate;
    t->pfnDestroy = zeImageDestroy;
    t->pfnGetAllocPropertiesExt = zeImageGetAllocPropertiesExt;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
