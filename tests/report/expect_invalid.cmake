# Runs the JSON schema validator and succeeds only if it rejected the instance (exit 1);
# a missing validator (77) is reported through SKIP_REGULAR_EXPRESSION (cmake -P cannot
# choose its exit code before CMake 3.29), anything else is a failure.
execute_process(COMMAND ${PYTHON} ${VALIDATOR} ${SCHEMA} ${INSTANCE} RESULT_VARIABLE result)
if(result EQUAL 77)
  message("jsonschema not installed: skipped")
elseif(NOT result EQUAL 1)
  message(FATAL_ERROR "expected the validator to reject ${INSTANCE} (exit 1), got: ${result}")
endif()
