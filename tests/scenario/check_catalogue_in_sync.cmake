# Regenerates the scenario catalogue into OUT and fails unless it equals COMMITTED.
execute_process(COMMAND ${GENERATOR} ${OUT} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "scenario_catalogue failed (${result})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${COMMITTED} RESULT_VARIABLE different)
if(different)
  message(FATAL_ERROR "${COMMITTED} is out of date with conformance/runtime/*.yaml; regenerate it:\n"
                      "  ${GENERATOR} ${COMMITTED}")
endif()
