#include "fault.hpp"

#include "backend.hpp"

#include "options.hpp"
#include "program_builder.hpp"
#include "ze_opencl_ext.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace ze_driver {

namespace fault {

std::atomic<bool> armed{false};

namespace {

struct Plan {
    std::string function; // "*" for any
    uint64_t nth = 0;
    uint64_t seen = 0;
    ze_result_t result = ZE_RESULT_SUCCESS;
    bool hit = false;
    std::string hitEntry;
};

std::mutex mutex; // guards plan
Plan plan;

// Destroying and freeing cannot be undone or retried by a caller, and a
// real driver does not fail them for lack of memory: "*" leaves them alone.
bool cleanupCall(const char *entry) {
    return std::strstr(entry, "Destroy") != nullptr || std::strcmp(entry, "zeMemFree") == 0;
}

void arm(const char *function, uint64_t nth, ze_result_t result) {
    std::lock_guard<std::mutex> lock(mutex);
    plan = Plan{};
    if (nth == 0 || function == nullptr || *function == '\0') {
        armed = false;
        return;
    }
    plan.function = function;
    plan.nth = nth;
    plan.result = result;
    armed = true;
}

ze_result_t parseResult(const std::string &text) {
    struct Name {
        const char *name;
        ze_result_t result;
    };
    static const Name names[] = {
        {"OUT_OF_HOST_MEMORY", ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY},
        {"OUT_OF_DEVICE_MEMORY", ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY},
        {"DEVICE_LOST", ZE_RESULT_ERROR_DEVICE_LOST},
        {"UNKNOWN", ZE_RESULT_ERROR_UNKNOWN},
    };
    std::string bare = text.rfind("ZE_RESULT_ERROR_", 0) == 0 ? text.substr(16) : text;
    for (const Name &n : names)
        if (bare == n.name)
            return n.result;
    return static_cast<ze_result_t>(std::strtoul(text.c_str(), nullptr, 0));
}

// ZE_OPENCL_FAULT=<entry point or *>:<N>:<result>, or translator:crash, read
// once at load.
const bool fromEnvironment = [] {
    const std::string &spec = options().fault;
    if (spec == "translator:crash") {
        crashNextTranslation();
        return true;
    }
    auto first = spec.find(':');
    auto second = spec.find(':', first == std::string::npos ? first : first + 1);
    if (spec.empty() || first == std::string::npos || second == std::string::npos)
        return false;
    arm(spec.substr(0, first).c_str(),
        std::strtoull(spec.substr(first + 1, second - first - 1).c_str(), nullptr, 10),
        parseResult(spec.substr(second + 1)));
    return true;
}();

ze_result_t ZE_APICALL setFault(const char *function, uint64_t nth, ze_result_t result) {
    arm(function, nth, result);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL getFaultHit(ze_bool_t *hit, char *name, size_t size) {
    if (hit == nullptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::lock_guard<std::mutex> lock(mutex);
    *hit = plan.hit;
    if (plan.hit && name != nullptr && size > 0) {
        std::strncpy(name, plan.hitEntry.c_str(), size - 1);
        name[size - 1] = '\0';
    }
    return ZE_RESULT_SUCCESS;
}

} // namespace

bool fire(const char *entry, ze_result_t *result) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!armed || plan.hit)
        return false;
    bool matches = plan.function == "*" ? !cleanupCall(entry) : plan.function == entry;
    if (!matches || ++plan.seen != plan.nth)
        return false;
    plan.hit = true;
    plan.hitEntry = entry;
    armed = false; // one fault per plan: the caller's retry must succeed
    *result = plan.result;
    return true;
}

} // namespace fault

void *extensionFunction(const char *name) {
    if (std::strcmp(name, ZEX_OPENCL_SET_FAULT_NAME) == 0)
        return reinterpret_cast<void *>(&fault::setFault);
    if (std::strcmp(name, ZEX_OPENCL_GET_FAULT_HIT_NAME) == 0)
        return reinterpret_cast<void *>(&fault::getFaultHit);
    return backend::extensionFunction(name);
}

} // namespace ze_driver
