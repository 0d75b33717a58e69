# imex_l0_add_test(NAME <name> COMMAND <cmd>... [INTERCEPT_TOO])
# The one way a test is added: every test runs through the system Level Zero
# loader with the project's driver selected and the validation layer's
# parameter checks on. INTERCEPT_TOO adds a second test, <name>.intercept, with
# ZE_ENABLE_LOADER_INTERCEPT=1, where the loader wraps the driver's handles
# instead of passing them through (as it does with several drivers).
function(imex_l0_add_test)
  cmake_parse_arguments(T "INTERCEPT_TOO" "NAME" "COMMAND;ENVIRONMENT" ${ARGN})
  # Sanitizer reports inside libraries the project does not build (PoCL,
  # LLVM, the loader) are suppressed by tests/sanitizers/*.supp, one reason
  # per entry; the options are inert in builds without sanitizers.
  # ASAN_OPTIONS: lsan.supp names a PoCL function, and only the slow unwinder
  # walks through PoCL and LLVM, which have no frame pointers. It costs: the
  # AddressSanitizer suite takes about 5x longer than with the fast one, so
  # allocations keep only the 12 frames that reach that function (lsan.supp).
  set(supp "${PROJECT_SOURCE_DIR}/tests/sanitizers")
  set(env
    "ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:ze_opencl>"
    "ZE_ENABLE_VALIDATION_LAYER=1"
    "ZE_ENABLE_PARAMETER_VALIDATION=1"
    "ASAN_OPTIONS=fast_unwind_on_malloc=0:malloc_context_size=12"
    "LSAN_OPTIONS=suppressions=${supp}/lsan.supp"
    "TSAN_OPTIONS=suppressions=${supp}/tsan.supp"
    ${T_ENVIRONMENT})
  list(GET T_COMMAND 0 program)
  if(IMEX_L0_ASAN AND TARGET ${program})
    get_target_property(linked ${program} IMEX_L0_LEAK_CHECK_AT_EXIT)
    if(NOT linked)
      target_sources(${program} PRIVATE "${supp}/leak_check_at_exit.c")
      set_target_properties(${program} PROPERTIES IMEX_L0_LEAK_CHECK_AT_EXIT ON)
    endif()
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 600)
  if(T_INTERCEPT_TOO)
    add_test(NAME ${T_NAME}.intercept COMMAND ${T_COMMAND})
    set_tests_properties(${T_NAME}.intercept PROPERTIES
      ENVIRONMENT "${env};ZE_ENABLE_LOADER_INTERCEPT=1" TIMEOUT 600)
  endif()
endfunction()
