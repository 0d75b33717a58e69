// The launch appends: every form of zeCommandListAppendLaunch*, recorded as
// Commands, or run at once on an immediate list (Queue::launch).
#include "command_list.hpp"
#include "context.hpp"
#include "driver.hpp"
#include "kernel.hpp"
#include "module.hpp"

#include <level_zero/ze_ddi.h>

namespace ze_driver {

namespace {

// A kernel the list can launch now: of the list's driver, every argument set.
Kernel *launchable(CommandList *list, ze_kernel_handle_t hKernel) {
    Kernel *kernel = fromHandle<Kernel>(hKernel);
    check(kernel->module()->context()->driver() == list->context()->driver(),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    kernel->checkReady();
    return kernel;
}

Command makeLaunch(CommandList *list, Command::Type type, ze_kernel_handle_t hKernel,
                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                   ze_event_handle_t *phWaitEvents) {
    Kernel *kernel = launchable(list, hKernel);
    Command c = makeCommand(list, type, hSignalEvent, numWaitEvents, phWaitEvents);
    c.kernel = kernel;
    if (list->immediate()) {
        // Enqueued before the append returns: the kernel's own values can be
        // used in place (a shared_ptr that owns nothing).
        c.launch = std::shared_ptr<const KernelLaunch>(std::shared_ptr<void>(), &kernel->launch());
    } else {
        c.launch = std::make_shared<const KernelLaunch>(kernel->launch());
    }
    return c;
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList,
                                                       ze_kernel_handle_t hKernel,
                                                       const ze_group_count_t *pLaunchFuncArgs,
                                                       ze_event_handle_t hSignalEvent,
                                                       uint32_t numWaitEvents,
                                                       ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        const ze_group_count_t &groups = *notNull(pLaunchFuncArgs);
        const bool empty =
            groups.groupCountX == 0 || groups.groupCountY == 0 || groups.groupCountZ == 0;
        if (list->immediate() && !empty) {
            Kernel *kernel = launchable(list, hKernel);
            Event *signal = signalOf(hSignalEvent);
            std::vector<Event *> waits = waitsOf(list, numWaitEvents, phWaitEvents);
            list->immediately([&](Queue &queue) { queue.launch(kernel, groups, signal, waits); },
                              signal);
            return ZE_RESULT_SUCCESS;
        }
        Command c = makeLaunch(list, Command::Type::Launch, hKernel, hSignalEvent, numWaitEvents,
                               phWaitEvents);
        c.groups = groups;
        // An empty launch has nothing to run (OpenCL rejects a zero global size).
        if (empty) {
            c.type = Command::Type::Barrier;
            c.kernel = nullptr;
            c.launch.reset();
        }
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

// Groups of a launch run concurrently as long as there are no more of them
// than zeKernelSuggestMaxCooperativeGroupCount says; the launch itself is an
// ordinary one.
ze_result_t ZE_APICALL zeCommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return ze_driver::zeCommandListAppendLaunchKernel(hCommandList, hKernel, pLaunchFuncArgs,
                                                      hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(pLaunchArgumentsBuffer);
        Command c = makeLaunch(list, Command::Type::LaunchIndirect, hKernel, hSignalEvent,
                               numWaitEvents, phWaitEvents);
        c.indirectGroups = pLaunchArgumentsBuffer;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t *phKernels,
    const uint32_t *pCountBuffer, const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(phKernels);
        notNull(pCountBuffer);
        notNull(pLaunchArgumentsBuffer);
        Command c = makeCommand(list, Command::Type::LaunchIndirect, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        for (uint32_t i = 0; i < numKernels; ++i) {
            Command one =
                makeLaunch(list, Command::Type::LaunchIndirect, phKernels[i], nullptr, 0, nullptr);
            c.batch.emplace_back(one.kernel, std::move(one.launch));
        }
        c.indirectGroups = pLaunchArgumentsBuffer;
        c.indirectCount = pCountBuffer;
        if (numKernels == 0)
            c.type = Command::Type::Barrier; // nothing can run: only waits and the signal
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

void setLaunchAppends(ze_command_list_dditable_t *t) {
    t->pfnAppendLaunchKernel = zeCommandListAppendLaunchKernel;
    t->pfnAppendLaunchCooperativeKernel = zeCommandListAppendLaunchCooperativeKernel;
    t->pfnAppendLaunchKernelIndirect = zeCommandListAppendLaunchKernelIndirect;
    t->pfnAppendLaunchMultipleKernelsIndirect = zeCommandListAppendLaunchMultipleKernelsIndirect;
}

} // namespace ze_driver
