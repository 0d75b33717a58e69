// Memory shared between processes (zeMemGetIpcHandle and friends), on a
// device whose USM is host pages (host_pages.hpp). Their table entries are
// set in memory.cpp.
#pragma once

#include <level_zero/ze_api.h>

namespace ze_driver {

ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
                                         ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t ZE_APICALL zeMemOpenIpcHandle(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                          ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t flags,
                                          void **pptr);
ze_result_t ZE_APICALL zeMemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr);


} // namespace ze_driver
