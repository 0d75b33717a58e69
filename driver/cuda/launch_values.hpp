// What a launch passes a translated kernel after its arguments: the values
// of the work-item builtins that CUDA's special registers do not give
// (launch_value_builtins.hpp defines those builtins). One layout for the
// translation, the driver's launches and the programs that launch translated
// PTX themselves (ze_cuda_gpu_check, bench_cuda_launch).
//
// CUDA runs at most 65,535 blocks in the second and third dimensions of a
// grid, 2^31 - 1 in the first; Level Zero's group counts are 32-bit in every
// dimension. A launch of more than 65,535 groups in the second or third
// dimension runs as several grids, each a part of the whole: its blocks read
// their part's first group in `groupBase` (get_group_id adds it to ctaid)
// and the whole launch's counts in `groupCount` (get_num_groups,
// get_global_size). The device reports 2^31 - 1 in every dimension (so that
// ids and counts are positive 32-bit numbers, as libclc's are); the first
// dimension reads ctaid.x and nctaid.x as they are.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ze_cuda {

struct LaunchValues {
    uint32_t offset[3] = {0, 0, 0};  // the global offset (zeKernelSetGlobalOffsetExp)
    uint32_t groupBase[2] = {0, 0};  // dimensions 1 and 2: the part's first group
    uint32_t groupCount[2] = {1, 1}; // dimensions 1 and 2: the whole launch's groups

    static constexpr size_t kCount = 7; // 32-bit parameters, in the order above

    // Where each of the kCount parameters is, for cuLaunchKernel's array.
    void pointTo(void **params) {
        for (size_t d = 0; d < 3; ++d)
            params[d] = &offset[d];
        for (size_t d = 0; d < 2; ++d) {
            params[3 + d] = &groupBase[d];
            params[5 + d] = &groupCount[d];
        }
    }
};

// Indices of the parameters, counted from the first after the arguments.
constexpr unsigned kOffsetValue = 0;     // + dimension (0..2)
constexpr unsigned kGroupBaseValue = 3;  // + dimension - 1 (dimensions 1, 2)
constexpr unsigned kGroupCountValue = 5; // + dimension - 1 (dimensions 1, 2)

} // namespace ze_cuda
