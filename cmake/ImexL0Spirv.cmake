# imex_l0_add_spirv(<out-var> [UNOPTIMIZED] <file.cl>...)
# Compiles OpenCL C files to SPIR-V at build time with the subprocess tools
# (clang-15 + llvm-spirv-15). Used for test inputs and examples that need
# SPIR-V without the library's own compiler. Typed pointers
# (-no-opaque-pointers) because translator 15 cannot translate clang 15's
# opaque pointers on local memory, atomics and structs; SPIR-V 1.2 because it
# is what the project's driver accepts. UNOPTIMIZED: as a front end leaves a
# program before any optimisation, the no-signed-wrap flags of its integer
# arithmetic kept in the SPIR-V (SPV_KHR_no_integer_wrap_decoration), as the
# library's own compiler hands it to zeModuleCreate; -O2 reassociates sums
# and drops the flags.
function(imex_l0_add_spirv out_var)
  set(optimization -O2)
  set(extensions +SPV_INTEL_subgroups,+SPV_KHR_uniform_group_instructions)
  set(files ${ARGN})
  if(ARGV1 STREQUAL "UNOPTIMIZED")
    list(REMOVE_AT files 0)
    set(optimization -O0 -disable-O0-optnone)
    string(APPEND extensions ",+SPV_KHR_no_integer_wrap_decoration")
  endif()
  set(outputs)
  foreach(cl ${files})
    get_filename_component(name "${cl}" NAME_WE)
    get_filename_component(abs "${cl}" ABSOLUTE)
    set(bc "${CMAKE_CURRENT_BINARY_DIR}/spirv/${name}.bc")
    set(spv "${CMAKE_CURRENT_BINARY_DIR}/spirv/${name}.spv")
    add_custom_command(
      OUTPUT "${spv}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/spirv"
      COMMAND "${IMEX_L0_CLANG}" -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0
              -no-opaque-pointers -fdeclare-opencl-builtins -finclude-default-header
              ${optimization} -emit-llvm-bc -o "${bc}" "${abs}"
      # Intel's sub-group operations and the uniform group arithmetic of
      # SPV_KHR_uniform_group_instructions, where a kernel uses them (their
      # extensions are declared only then).
      COMMAND "${IMEX_L0_LLVM_SPIRV}" --spirv-max-version=1.2
              --spirv-ext=${extensions}
              "${bc}" -o "${spv}"
      COMMAND "${IMEX_L0_SPIRV_VAL}" "${spv}"
      DEPENDS "${abs}"
      COMMENT "SPIR-V ${name}.spv"
      VERBATIM)
    list(APPEND outputs "${spv}")
    # Every test kernel, for the CUDA backend's PTX check (driver/cuda/tests).
    set_property(GLOBAL APPEND PROPERTY IMEX_L0_ALL_SPIRV "${spv}")
  endforeach()
  set(${out_var} ${outputs} PARENT_SCOPE)
endfunction()
