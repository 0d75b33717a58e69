// The Level Zero tables the CUDA backend does not fill yet: images and
// samplers. The loader refuses a driver that
// lacks one of them, so they are exported empty, which the loader reports as unsupported; each goes away
// when the core's implementation of its objects runs on this backend (see
// README.md, "Next steps").
#include "object.hpp"

#include <level_zero/ze_ddi.h>

namespace ze_driver {

extern "C" {
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t v,
                                                        ze_image_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t v,
                                                        ze_sampler_dditable_t *t) {
    return emptyTable(v, t);
}
} // extern "C"

} // namespace ze_driver
