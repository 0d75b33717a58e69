// The tools (zet) and sysman (zes) DDI tables. The loader refuses a driver
// that does not export every one of them, but the driver implements neither:
// every entry is null, which the loader reports as unsupported.
#include "object.hpp"

#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

namespace ze_driver {

extern "C" {
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetDeviceProcAddrTable(ze_api_version_t v,
                                                              zet_device_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetContextProcAddrTable(ze_api_version_t v,
                                                               zet_context_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetCommandListProcAddrTable(ze_api_version_t v,
                                                                   zet_command_list_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetModuleProcAddrTable(ze_api_version_t v,
                                                              zet_module_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetKernelProcAddrTable(ze_api_version_t v,
                                                              zet_kernel_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetMetricGroupProcAddrTable(ze_api_version_t v,
                                                                   zet_metric_group_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetMetricProcAddrTable(ze_api_version_t v,
                                                              zet_metric_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL
zetGetMetricStreamerProcAddrTable(ze_api_version_t v, zet_metric_streamer_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL
zetGetMetricQueryPoolProcAddrTable(ze_api_version_t v, zet_metric_query_pool_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetMetricQueryProcAddrTable(ze_api_version_t v,
                                                                   zet_metric_query_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetDebugProcAddrTable(ze_api_version_t v,
                                                             zet_debug_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zetGetTracerExpProcAddrTable(ze_api_version_t v,
                                                                 zet_tracer_exp_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDriverProcAddrTable(ze_api_version_t v,
                                                              zes_driver_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDeviceProcAddrTable(ze_api_version_t v,
                                                              zes_device_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetSchedulerProcAddrTable(ze_api_version_t v,
                                                                 zes_scheduler_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL
zesGetPerformanceFactorProcAddrTable(ze_api_version_t v, zes_performance_factor_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetPowerProcAddrTable(ze_api_version_t v,
                                                             zes_power_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetFrequencyProcAddrTable(ze_api_version_t v,
                                                                 zes_frequency_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetEngineProcAddrTable(ze_api_version_t v,
                                                              zes_engine_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetStandbyProcAddrTable(ze_api_version_t v,
                                                               zes_standby_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetFirmwareProcAddrTable(ze_api_version_t v,
                                                                zes_firmware_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetMemoryProcAddrTable(ze_api_version_t v,
                                                              zes_memory_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetFabricPortProcAddrTable(ze_api_version_t v,
                                                                  zes_fabric_port_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetTemperatureProcAddrTable(ze_api_version_t v,
                                                                   zes_temperature_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetPsuProcAddrTable(ze_api_version_t v,
                                                           zes_psu_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetFanProcAddrTable(ze_api_version_t v,
                                                           zes_fan_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetLedProcAddrTable(ze_api_version_t v,
                                                           zes_led_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetRasProcAddrTable(ze_api_version_t v,
                                                           zes_ras_dditable_t *t) {
    return emptyTable(v, t);
}
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDiagnosticsProcAddrTable(ze_api_version_t v,
                                                                   zes_diagnostics_dditable_t *t) {
    return emptyTable(v, t);
}
} // extern "C"

} // namespace ze_driver
