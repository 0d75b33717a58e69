# cmake --install: the headers, the library and its compiler (side by side,
# where the library looks for it), the two drivers (libze_opencl.so,
# libze_cuda.so), a CMake package
# (find_package(imex_l0_interop CONFIG) -> imex_l0::interop, and imex_l0::mlir_runtime
# for MLIR's mgpu* ABI) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(IMEX_L0_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/imex_l0_interop)

# The headers go into one directory of their own, include/imex_l0, which the
# package's targets and the pkg-config file put on the include path: code
# includes "imex_l0_interop.h" as in the build tree.
install(TARGETS imex_l0_interop imex_l0_mlir_runtime EXPORT imex_l0_interop_targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS imex_l0_compiler LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS ze_opencl ze_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The SYCL flavour of the gpu* wrappers needs Intel's libsycl.so.9 on the
# library path of the program that links it (docs/sycl.md).
if(TARGET imex_gpu_sycl)
  install(TARGETS imex_gpu_sycl LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(FILES
  ${PROJECT_SOURCE_DIR}/include/imex_l0_interop.h
  ${PROJECT_SOURCE_DIR}/include/imex_l0_interop.hpp
  ${PROJECT_SOURCE_DIR}/include/imex_l0_sycl.hpp
  ${PROJECT_SOURCE_DIR}/include/imex_gpu_abi.h
  ${PROJECT_SOURCE_DIR}/include/imex_gpu_runtime.h
  ${PROJECT_SOURCE_DIR}/include/imex_gpu_sycl_runtime.h
  ${PROJECT_SOURCE_DIR}/include/imex_l0_mlir_runtime.h
  ${PROJECT_SOURCE_DIR}/driver/include/ze_opencl_ext.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/imex_l0)

set_target_properties(imex_l0_interop PROPERTIES EXPORT_NAME interop)
set_target_properties(imex_l0_mlir_runtime PROPERTIES EXPORT_NAME mlir_runtime)
install(EXPORT imex_l0_interop_targets NAMESPACE imex_l0:: DESTINATION ${IMEX_L0_CMAKE_DIR}
  FILE imex_l0_interopTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/templates/imex_l0_interopConfig.cmake.in
  ${PROJECT_BINARY_DIR}/imex_l0_interopConfig.cmake INSTALL_DESTINATION ${IMEX_L0_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/imex_l0_interopConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/imex_l0_interopConfig.cmake
  ${PROJECT_BINARY_DIR}/imex_l0_interopConfigVersion.cmake DESTINATION ${IMEX_L0_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/templates/imex_l0_interop.pc.in
  ${PROJECT_BINARY_DIR}/imex_l0_interop.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/imex_l0_interop.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
