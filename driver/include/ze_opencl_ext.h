/*
 * Extension functions of libze_opencl.so, found with
 * zeDriverGetExtensionFunctionAddress(driver, name, &fn).
 *
 * Fault injection: make the N-th call of an entry point fail with a chosen
 * ze_result_t, without doing anything else, to test how code above the driver
 * handles Level Zero failures. The same is available from the environment as
 * ZE_OPENCL_FAULT=<entry point or *>:<N>:<result> (see driver/README.md).
 */
#ifndef ZE_OPENCL_EXT_H
#define ZE_OPENCL_EXT_H

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZEX_OPENCL_SET_FAULT_NAME "zexOpenclSetFault"
/* Arms the fault: the nth (1-based) call counted from now of `function` (an
 * entry point name such as "zeMemAllocDevice", or "*" for every entry point
 * except the destroy/free calls, which callers cannot recover from) returns
 * `result`. nth == 0 disarms. Replaces any earlier plan and clears the hit. */
typedef ze_result_t(ZE_APICALL *zex_opencl_set_fault_t)(const char *function, uint64_t nth,
                                                       ze_result_t result);

#define ZEX_OPENCL_GET_FAULT_HIT_NAME "zexOpenclGetFaultHit"
/* *hit: whether the armed fault has fired; when it has, the entry point that
 * failed is copied into name (NUL-terminated, truncated to size). */
typedef ze_result_t(ZE_APICALL *zex_opencl_get_fault_hit_t)(ze_bool_t *hit, char *name,
                                                           size_t size);

#ifdef __cplusplus
}
#endif

#endif /* ZE_OPENCL_EXT_H */
