# Every external dependency is found here, once, as an imported target.
# LLVM and Clang are linked as the shared libLLVM-15 / libclang-cpp15 only:
# PoCL loads libLLVM-15 into the same process, and a second (static or other
# version) LLVM in one process aborts on duplicate command-line options.

find_package(PkgConfig REQUIRED)
pkg_check_modules(LEVEL_ZERO REQUIRED IMPORTED_TARGET level-zero)
pkg_check_modules(LLVMSPIRV REQUIRED IMPORTED_TARGET LLVMSPIRVLib)
find_package(OpenCL REQUIRED)

set(IMEX_L0_LLVM_ROOT "/usr/lib/llvm-15" CACHE PATH "Root of the LLVM 15 installation")
find_package(LLVM 15 REQUIRED CONFIG
  PATHS "${IMEX_L0_LLVM_ROOT}/lib/cmake/llvm" NO_DEFAULT_PATH)
find_package(Clang REQUIRED CONFIG
  PATHS "${IMEX_L0_LLVM_ROOT}/lib/cmake/clang" NO_DEFAULT_PATH)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# One interface target per shared LLVM library, with LLVM's include paths
# and definitions (LLVM headers need them to agree with the built library).
add_library(imex_l0_llvm INTERFACE)
target_include_directories(imex_l0_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(imex_l0_llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(imex_l0_llvm INTERFACE LLVM)

add_library(imex_l0_clang INTERFACE)
target_include_directories(imex_l0_clang SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})
target_link_libraries(imex_l0_clang INTERFACE clang-cpp imex_l0_llvm)

# Tools used at build time to make SPIR-V test inputs and as the compiler's
# subprocess fallback / test oracle.
find_program(IMEX_L0_CLANG clang-15 REQUIRED)
# Its builtin headers (opencl-c.h): the compiler reads them at run time, the
# builtin-declarations test generates its kernels from them.
execute_process(
  COMMAND "${IMEX_L0_CLANG}" -print-resource-dir
  OUTPUT_VARIABLE IMEX_L0_CLANG_RESOURCE_DIR
  OUTPUT_STRIP_TRAILING_WHITESPACE
  COMMAND_ERROR_IS_FATAL ANY)
find_program(IMEX_L0_LLVM_SPIRV llvm-spirv-15 PATHS "${IMEX_L0_LLVM_ROOT}/bin" REQUIRED)
find_program(IMEX_L0_SPIRV_VAL spirv-val REQUIRED)

if(IMEX_L0_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(IMEX_L0_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
