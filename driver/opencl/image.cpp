// The OpenCL backend's images and samplers (../core/backend.hpp): an image is
// an OpenCL image of the driver's OpenCL context, a sampler an OpenCL
// sampler; the image copy commands are OpenCL's (queue.cpp).
#include "image.hpp"
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace ze_driver {

// The core's pixel formats are OpenCL's.
static_assert(channel::kUnormInt8 == CL_UNORM_INT8 && channel::kFloat == CL_FLOAT &&
                  channel::kSignedInt32 == CL_SIGNED_INT32 &&
                  channel::kHalfFloat == CL_HALF_FLOAT && channel::kRGBA == CL_RGBA &&
                  channel::kABGR == CL_ABGR && channel::kA == CL_A,
              "image.hpp's channel values are OpenCL's");
namespace {

cl_mem_object_type clObjectType(ze_image_type_t type) {
    switch (type) {
    case ZE_IMAGE_TYPE_1D:
        return CL_MEM_OBJECT_IMAGE1D;
    case ZE_IMAGE_TYPE_1DARRAY:
        return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case ZE_IMAGE_TYPE_2D:
        return CL_MEM_OBJECT_IMAGE2D;
    case ZE_IMAGE_TYPE_2DARRAY:
        return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case ZE_IMAGE_TYPE_3D:
        return CL_MEM_OBJECT_IMAGE3D;
    default:
        return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    }
}

// Every image is readable and writable by kernels: Level Zero's flags are
// hints, and an image the application writes with a kernel despite them
// still works.
constexpr cl_mem_flags kImageFlags = CL_MEM_READ_WRITE;

// OpenCL's refusals of an image, in Level Zero terms.
void checkImageCreation(cl_int err) {
    if (err == CL_IMAGE_FORMAT_NOT_SUPPORTED || err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        fail(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    if (err == CL_INVALID_IMAGE_SIZE || err == CL_INVALID_IMAGE_DESCRIPTOR)
        fail(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    checkCl(err);
}

} // namespace

bool backend::imageSupported(Device &device, ze_image_type_t type, const PixelFormat &format) {
    // PoCL 3.1's CPU device lists CL_HALF_FLOAT but reads and writes wrong
    // values (a pixel of 1.0 comes back as 0x0470 through read_imagef and
    // write_imagef), and nothing tells such a device from one that works.
    if (format.type == channel::kHalfFloat)
        return false;
    std::unique_ptr<_cl_context, decltype(&clReleaseContext)> context(
        retainClContext(device.driver()), clReleaseContext);
    cl_uint count = 0;
    const cl_mem_object_type object = clObjectType(type);
    checkCl(clGetSupportedImageFormats(context.get(), kImageFlags, object, 0, nullptr, &count));
    std::vector<cl_image_format> formats(count);
    checkCl(clGetSupportedImageFormats(context.get(), kImageFlags, object, count, formats.data(),
                                       nullptr));
    return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format &f) {
        return f.image_channel_order == format.order && f.image_channel_data_type == format.type;
    });
}

void backend::initImage(Image &image) {
    const ze_image_desc_t &desc = image.desc();
    const size_t *extent = image.extent();
    cl_context context = image.context()->native().cl;
    const cl_image_format format = {image.format().order, image.format().type};
    cl_image_desc cl = {};
    cl.image_type = clObjectType(desc.type);
    cl.image_width = extent[0];
    switch (desc.type) {
    case ZE_IMAGE_TYPE_1DARRAY:
        cl.image_array_size = extent[1];
        break;
    case ZE_IMAGE_TYPE_2D:
        cl.image_height = extent[1];
        break;
    case ZE_IMAGE_TYPE_2DARRAY:
        cl.image_height = extent[1];
        cl.image_array_size = extent[2];
        break;
    case ZE_IMAGE_TYPE_3D:
        cl.image_height = extent[1];
        cl.image_depth = extent[2];
        break;
    default:
        break;
    }
    cl_int err = CL_SUCCESS;
    if (desc.type == ZE_IMAGE_TYPE_BUFFER) {
        cl_mem buffer = clCreateBuffer(context, kImageFlags, desc.width, nullptr, &err);
        checkImageCreation(err);
        cl.buffer = buffer;
        image.native().cl = clCreateImage(context, kImageFlags, &format, &cl, nullptr, &err);
        clReleaseMemObject(buffer); // the image keeps it
    } else {
        image.native().cl = clCreateImage(context, kImageFlags, &format, &cl, nullptr, &err);
    }
    checkImageCreation(err);
}

void backend::finishImage(Image &image) noexcept {
    if (image.native().cl != nullptr)
        clReleaseMemObject(image.native().cl);
}

void backend::initSampler(Sampler &sampler) {
    const uint32_t bits = sampler.bits();
    const cl_sampler_properties properties[] = {
        CL_SAMPLER_NORMALIZED_COORDS,
        cl_sampler_properties((bits & sampler_bits::kNormalized) ? CL_TRUE : CL_FALSE),
        CL_SAMPLER_ADDRESSING_MODE,
        // OpenCL's addressing modes are OpenCL C's bits plus CL_ADDRESS_NONE.
        cl_sampler_properties(CL_ADDRESS_NONE + ((bits & 0xe) >> 1)), CL_SAMPLER_FILTER_MODE,
        cl_sampler_properties((bits & sampler_bits::kLinear) ? CL_FILTER_LINEAR
                                                             : CL_FILTER_NEAREST),
        0};
    cl_int err = CL_SUCCESS;
    sampler.native().cl =
        clCreateSamplerWithProperties(sampler.context()->native().cl, properties, &err);
    checkCl(err);
}

void backend::finishSampler(Sampler &sampler) noexcept {
    if (sampler.native().cl != nullptr)
        clReleaseSampler(sampler.native().cl);
}

} // namespace ze_driver
