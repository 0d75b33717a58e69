# IMEX_L0_SANITIZE=address|undefined|thread instruments every target of the
# project (the driver included); system libraries (PoCL, LLVM, the loader) are
# not instrumented.
if(IMEX_L0_SANITIZE STREQUAL "OFF" OR IMEX_L0_SANITIZE STREQUAL "")
  return()
endif()
if(IMEX_L0_SANITIZE STREQUAL "address")
  set(_imex_l0_san_flags -fsanitize=address -fno-omit-frame-pointer)
elseif(IMEX_L0_SANITIZE STREQUAL "undefined")
  set(_imex_l0_san_flags -fsanitize=undefined -fno-sanitize-recover=undefined)
elseif(IMEX_L0_SANITIZE STREQUAL "thread")
  set(_imex_l0_san_flags -fsanitize=thread)
else()
  message(FATAL_ERROR "IMEX_L0_SANITIZE must be OFF, address, undefined or thread, not '${IMEX_L0_SANITIZE}'")
endif()
add_compile_options(${_imex_l0_san_flags})
add_link_options(${_imex_l0_san_flags})
