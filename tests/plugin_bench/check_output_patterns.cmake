# Runs COMMAND (a ;-list); fails unless it exits with EXPECTED and its combined output matches
# every regular expression of EXPECT (a ;-list), each on its own, and none of REJECT.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 240)
if(NOT result EQUAL EXPECTED)
  message(FATAL_ERROR "exit code ${result}, expected ${EXPECTED}\nstdout:\n${out}\nstderr:\n${err}")
endif()
foreach(pattern IN LISTS EXPECT)
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "output does not match '${pattern}':\n${out}${err}")
  endif()
endforeach()
foreach(pattern IN LISTS REJECT)
  if("${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "output matches '${pattern}', which it must not:\n${out}${err}")
  endif()
endforeach()
