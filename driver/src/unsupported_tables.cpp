// Tables of objects the driver does not implement (images, samplers): every
// entry returns UNSUPPORTED_FEATURE.
#include "object.hpp"

#include <level_zero/ze_ddi.h>

namespace ze_opencl {

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t version,
                                                            ze_image_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    setUnsupported(t->pfnGetProperties);
    setUnsupported(t->pfnCreate);
    setUnsupported(t->pfnDestroy);
    setUnsupported(t->pfnGetAllocPropertiesExt);
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t version,
                                                              ze_sampler_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    setUnsupported(t->pfnCreate);
    setUnsupported(t->pfnDestroy);
    return ZE_RESULT_SUCCESS;
}

} // extern "C"

} // namespace ze_opencl
