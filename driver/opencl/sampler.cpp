// Samplers on OpenCL samplers, and the Sampler DDI table.
#include "sampler.hpp"

#include "context.hpp"

#include <level_zero/ze_ddi.h>

#include <memory>

namespace ze_driver {

namespace {

cl_addressing_mode addressing(ze_sampler_address_mode_t mode, bool normalized) {
    switch (mode) {
    case ZE_SAMPLER_ADDRESS_MODE_NONE:
        return CL_ADDRESS_NONE;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP:
        return CL_ADDRESS_CLAMP_TO_EDGE;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
        return CL_ADDRESS_CLAMP;
    case ZE_SAMPLER_ADDRESS_MODE_REPEAT:
    case ZE_SAMPLER_ADDRESS_MODE_MIRROR:
        // Wrapping is defined on normalized coordinates only. L0 accepts
        // the sampler either way (OpenCL refuses it), and such a sampler
        // reads as one without address mode, which is also what the
        // coordinates of a read inside the image give.
        if (!normalized)
            return CL_ADDRESS_NONE;
        return mode == ZE_SAMPLER_ADDRESS_MODE_REPEAT ? CL_ADDRESS_REPEAT
                                                      : CL_ADDRESS_MIRRORED_REPEAT;
    default:
        fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

cl_filter_mode filter(ze_sampler_filter_mode_t mode) {
    switch (mode) {
    case ZE_SAMPLER_FILTER_MODE_NEAREST:
        return CL_FILTER_NEAREST;
    case ZE_SAMPLER_FILTER_MODE_LINEAR:
        return CL_FILTER_LINEAR;
    default:
        fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

} // namespace

Sampler::Sampler(Context *context, const ze_sampler_desc_t &desc)
    : Object(kTag), context_(context) {
    const cl_sampler_properties properties[] = {
        CL_SAMPLER_NORMALIZED_COORDS,
        cl_sampler_properties(desc.isNormalized ? CL_TRUE : CL_FALSE),
        CL_SAMPLER_ADDRESSING_MODE,
        addressing(desc.addressMode, desc.isNormalized),
        CL_SAMPLER_FILTER_MODE,
        filter(desc.filterMode),
        0};
    cl_int err = CL_SUCCESS;
    cl_ = clCreateSamplerWithProperties(context->native().cl, properties, &err);
    checkCl(err);
}

Sampler::~Sampler() {
    clReleaseSampler(cl_);
}

namespace {

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

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetSamplerProcAddrTable(ze_api_version_t version, ze_sampler_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeSamplerCreate;
    t->pfnDestroy = zeSamplerDestroy;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
