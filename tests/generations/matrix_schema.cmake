# The --matrix JSON report validates against specs/report/report.schema.json.
# -DTOOL= -DPLUGIN= -DOUT= -DPYTHON= -DVALIDATOR= -DSCHEMA=
execute_process(COMMAND ${TOOL} ${PLUGIN} --matrix --seed 7 --jobs 2 --json ${OUT}
                RESULT_VARIABLE tool_rc OUTPUT_QUIET ERROR_VARIABLE tool_err)
if(NOT EXISTS ${OUT})
  message(FATAL_ERROR "no report (exit ${tool_rc}): ${tool_err}")
endif()
execute_process(COMMAND ${PYTHON} ${VALIDATOR} ${SCHEMA} ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE text)
if(rc EQUAL 77)
  message("jsonschema not installed: skipped")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "the --matrix report does not validate:\n${text}")
endif()
