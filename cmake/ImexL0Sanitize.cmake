# IMEX_L0_SANITIZE instruments every target of the project (the driver
# included) with a comma-separated list of sanitizers: address, undefined,
# thread ("address,undefined" is the CI pass). System libraries (PoCL, LLVM,
# the loader) are not instrumented.
#
# IMEX_L0_FUZZ (clang only) adds libFuzzer's coverage instrumentation to every
# target, so that the fuzz targets in tests/fuzz are guided through the
# project's code, and builds those targets as libFuzzer programs.
#
# IMEX_L0_NO_UNDEFINED_LINK is what the shared libraries pass to the linker to
# refuse undefined symbols. It is empty when clang's sanitizer runtime is
# linked into the executables only: the libraries then resolve the runtime's
# symbols from the program that loads them.
set(IMEX_L0_NO_UNDEFINED_LINK "LINKER:--no-undefined")

set(_imex_l0_san_flags "")
if(NOT IMEX_L0_SANITIZE STREQUAL "OFF" AND NOT IMEX_L0_SANITIZE STREQUAL "")
  string(REPLACE "," ";" _imex_l0_sanitizers "${IMEX_L0_SANITIZE}")
  foreach(_san IN LISTS _imex_l0_sanitizers)
    if(NOT _san MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "IMEX_L0_SANITIZE is OFF or a comma-separated list of address, "
                          "undefined, thread; '${_san}' is none of them")
    endif()
  endforeach()
  if("address" IN_LIST _imex_l0_sanitizers AND "thread" IN_LIST _imex_l0_sanitizers)
    message(FATAL_ERROR "IMEX_L0_SANITIZE: address and thread cannot share one build")
  endif()
  list(APPEND _imex_l0_san_flags "-fsanitize=${IMEX_L0_SANITIZE}" -fno-omit-frame-pointer)
  if("undefined" IN_LIST _imex_l0_sanitizers)
    # A report is a failure, not a line in a log nobody reads.
    list(APPEND _imex_l0_san_flags -fno-sanitize-recover=undefined)
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(IMEX_L0_NO_UNDEFINED_LINK "")
    # C programs (the examples, the C API test) load C++ libraries whose
    # UBSan checks need the runtime's C++ part, which needs libstdc++.
    add_link_options("$<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime;-lstdc++>")
  endif()
endif()

if(IMEX_L0_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "IMEX_L0_FUZZ needs clang (libFuzzer): configure with "
                        "CC=clang-15 CXX=clang++-15")
  endif()
  list(APPEND _imex_l0_san_flags -fsanitize=fuzzer-no-link)
  set(IMEX_L0_NO_UNDEFINED_LINK "")
endif()

if(_imex_l0_san_flags)
  add_compile_options(${_imex_l0_san_flags})
  add_link_options(${_imex_l0_san_flags})
endif()
