# The MLIR part (mlir/: the GPUX dialect, imex-opt) is built against MLIR 22
# as an external project with its own build directory (build/mlir): MLIR 22's
# CMake package imports LLVM 22 targets whose names clash with the LLVM 15
# targets of this project. On by default when MLIR 22 is installed, except in
# sanitizer builds (mlir-runner-22 cannot load instrumented libraries, and the
# dialect is not where the sanitizers look).
find_file(IMEX_L0_MLIR_CONFIG MLIRConfig.cmake PATHS /usr/lib/llvm-22/lib/cmake/mlir
          NO_DEFAULT_PATH)
set(mlir_default OFF)
if(IMEX_L0_MLIR_CONFIG AND IMEX_L0_SANITIZE STREQUAL "OFF")
  set(mlir_default ON)
endif()
option(IMEX_L0_BUILD_MLIR "Build mlir/ (the GPUX dialect and imex-opt) against MLIR 22"
       ${mlir_default})
if(NOT IMEX_L0_BUILD_MLIR)
  if(NOT IMEX_L0_MLIR_CONFIG)
    message(STATUS "GPUX dialect (mlir/) not built: MLIR 22 not found (Debian packages "
                   "libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools; scripts/setup.sh "
                   "installs them)")
  else()
    message(STATUS "GPUX dialect (mlir/) not built (IMEX_L0_BUILD_MLIR=OFF)")
  endif()
  return()
endif()
if(NOT IMEX_L0_MLIR_CONFIG)
  message(FATAL_ERROR "IMEX_L0_BUILD_MLIR needs MLIR 22: install the Debian packages "
                      "libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools (scripts/setup.sh)")
endif()

include(ExternalProject)
set(IMEX_L0_MLIR_BINARY_DIR ${PROJECT_BINARY_DIR}/mlir)
set(IMEX_L0_IMEX_OPT ${IMEX_L0_MLIR_BINARY_DIR}/bin/imex-opt)
ExternalProject_Add(imex_gpux
  SOURCE_DIR ${PROJECT_SOURCE_DIR}/mlir
  BINARY_DIR ${IMEX_L0_MLIR_BINARY_DIR}
  CMAKE_GENERATOR ${CMAKE_GENERATOR}
  CMAKE_ARGS -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
             -DIMEX_L0_INTEROP_LIBRARY=$<TARGET_FILE:imex_l0_interop>
             -DIMEX_L0_ZE_DRIVER=$<TARGET_FILE:ze_opencl>
  BUILD_ALWAYS ON
  BUILD_BYPRODUCTS ${IMEX_L0_IMEX_OPT}
  INSTALL_COMMAND ""
  USES_TERMINAL_BUILD ON)
add_dependencies(imex_gpux imex_l0_interop ze_opencl)

if(IMEX_L0_BUILD_TESTS)
  # The dialect's lit suite; its end-to-end tests run lowered code through
  # mlir-runner-22 with the built runtime, on the driver ctest selects.
  imex_l0_add_test(NAME gpux.lit
    COMMAND /usr/lib/llvm-22/bin/lit -v ${IMEX_L0_MLIR_BINARY_DIR}/test)
endif()
