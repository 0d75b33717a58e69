# LLVM-free SPIR-V reflection, linked into the library (and its tests).
add_library(imex_l0_spirv_reflect STATIC ${CMAKE_CURRENT_LIST_DIR}/spirv_reflect.cpp)
target_include_directories(imex_l0_spirv_reflect
  PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
set_target_properties(imex_l0_spirv_reflect PROPERTIES
  POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden)
