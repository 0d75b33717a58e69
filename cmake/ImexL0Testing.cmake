# imex_l0_add_test(NAME <name> COMMAND <cmd>... [INTERCEPT_TOO] [NO_POCL]
#                  [ENVIRONMENT <var=value>...])
# The one way a test is added: every test runs through the system Level Zero
# loader with the project's driver selected and the validation layer's
# parameter checks on. INTERCEPT_TOO adds a second test, <name>.intercept, with
# ZE_ENABLE_LOADER_INTERCEPT=1, where the loader wraps the driver's handles
# instead of passing them through (as it does with several drivers). NO_POCL
# declares that the program never loads PoCL, so the fast unwinder suffices.
function(imex_l0_add_test)
  cmake_parse_arguments(T "INTERCEPT_TOO;NO_POCL" "NAME" "COMMAND;ENVIRONMENT" ${ARGN})
  # Sanitizer reports inside libraries the project does not build (PoCL,
  # LLVM, the loader) are suppressed by tests/sanitizers/*.supp, one reason
  # per entry; the options are inert in builds without sanitizers.
  # ASAN_OPTIONS: lsan.supp names a PoCL function, and only the slow unwinder
  # walks through PoCL and LLVM, which have no frame pointers. It costs: the
  # AddressSanitizer suite takes about 5x longer than with the fast one, so
  # allocations keep only the 12 frames that reach that function (lsan.supp).
  # intercept_tls_get_addr=0: the LLVM 15 runtime takes some dynamic TLS
  # blocks that glibc 2.36 places 16 bytes into a page for a pre-2.25 header
  # and records a garbage range, which crashes LeakSanitizer's tracer at exit
  # ("Tracer caught signal 11", google/sanitizers#1322); with it, dynamic TLS
  # of dlopen()ed libraries is not scanned for pointers.
  set(unwind "fast_unwind_on_malloc=0:malloc_context_size=12")
  if(T_NO_POCL)
    set(unwind "fast_unwind_on_malloc=1")
  endif()
  set(supp "${PROJECT_SOURCE_DIR}/tests/sanitizers")
  set(env
    "ZE_ENABLE_ALT_DRIVERS=$<TARGET_FILE:ze_opencl>"
    "ZE_ENABLE_VALIDATION_LAYER=1"
    "ZE_ENABLE_PARAMETER_VALIDATION=1"
    "ASAN_OPTIONS=${unwind}:intercept_tls_get_addr=0"
    "LSAN_OPTIONS=suppressions=${supp}/lsan.supp"
    "TSAN_OPTIONS=suppressions=${supp}/tsan.supp"
    ${T_ENVIRONMENT})
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 600)
  if(T_INTERCEPT_TOO)
    add_test(NAME ${T_NAME}.intercept COMMAND ${T_COMMAND})
    set_tests_properties(${T_NAME}.intercept PROPERTIES
      ENVIRONMENT "${env};ZE_ENABLE_LOADER_INTERCEPT=1" TIMEOUT 600)
  endif()
endfunction()
