# write_if_changed(<file> <content>): writes the file only when its content
# would change, so that a generated source left as it was rebuilds nothing.
function(write_if_changed file content)
  if(EXISTS "${file}")
    file(READ "${file}" old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${content}")
endfunction()
