# SYCL interop (include/imex_l0_sycl.hpp) is header-only: nothing the project
# ships links SYCL. Its tests and example run on Intel's SYCL runtime, which
# scripts/setup_sycl.sh installs into .deps/sycl together with the Level Zero
# loader that runtime needs (.deps/level-zero; Debian 12's 1.8.12 crashes
# it, docs/sycl.md). On by default where both are found.
set(IMEX_L0_SYCL_ROOT "${PROJECT_SOURCE_DIR}/.deps/sycl" CACHE PATH
    "Where Intel's SYCL runtime is installed (include/sycl, lib/libsycl.so)")
set(IMEX_L0_SYCL_LOADER_DIR "${PROJECT_SOURCE_DIR}/.deps/level-zero/lib" CACHE PATH
    "A Level Zero loader of 1.15 or later for SYCL programs")
find_library(IMEX_L0_SYCL_LIBRARY sycl PATHS ${IMEX_L0_SYCL_ROOT}/lib NO_DEFAULT_PATH)
find_path(IMEX_L0_SYCL_INCLUDE_DIR sycl/sycl.hpp PATHS ${IMEX_L0_SYCL_ROOT}/include
          NO_DEFAULT_PATH)
find_file(IMEX_L0_SYCL_LOADER libze_loader.so.1 PATHS ${IMEX_L0_SYCL_LOADER_DIR}
          NO_DEFAULT_PATH)
set(sycl_default OFF)
if(IMEX_L0_SYCL_LIBRARY AND IMEX_L0_SYCL_INCLUDE_DIR AND IMEX_L0_SYCL_LOADER)
  set(sycl_default ON)
endif()
option(IMEX_L0_BUILD_SYCL "Build the SYCL interop tests and example against Intel's SYCL runtime"
       ${sycl_default})
if(NOT IMEX_L0_BUILD_SYCL)
  message(STATUS "SYCL interop tests not built: no SYCL runtime and Level Zero loader in "
                 "${IMEX_L0_SYCL_ROOT} and ${IMEX_L0_SYCL_LOADER_DIR} (scripts/setup_sycl.sh "
                 "installs them), or IMEX_L0_BUILD_SYCL=OFF")
  return()
endif()
if(NOT sycl_default)
  message(FATAL_ERROR "IMEX_L0_BUILD_SYCL needs Intel's SYCL runtime in IMEX_L0_SYCL_ROOT "
                      "and a Level Zero loader >= 1.15 in IMEX_L0_SYCL_LOADER_DIR: run "
                      "scripts/setup_sycl.sh")
endif()

add_library(imex_l0_sycl_runtime INTERFACE)
target_include_directories(imex_l0_sycl_runtime SYSTEM INTERFACE ${IMEX_L0_SYCL_INCLUDE_DIR})
target_link_libraries(imex_l0_sycl_runtime INTERFACE ${IMEX_L0_SYCL_LIBRARY})
# Host code only: without -fsycl the header warns in case device code is meant.
target_compile_definitions(imex_l0_sycl_runtime INTERFACE SYCL_DISABLE_FSYCL_SYCLHPP_WARNING)

# The environment of a SYCL program on the project's driver: the newer
# loader first (libsycl and the runtime's adapters are found through the
# programs' and libsycl's own run paths: the runtime's directory stays off
# the library path, because it also holds an OpenCL ICD loader of its own,
# which the OpenCL backend would then use instead of the system's); the
# OpenCL backend's device reported as a GPU (Intel's runtime lists only GPUs
# of the Level Zero backend); only that backend.
set(IMEX_L0_SYCL_ENVIRONMENT
  "LD_LIBRARY_PATH=${IMEX_L0_SYCL_LOADER_DIR}"
  "ZE_OPENCL_DEVICE_TYPE=GPU"
  "ONEAPI_DEVICE_SELECTOR=level_zero:*")
