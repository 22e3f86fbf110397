# Runs plugin_bench COMMAND (a ;-list ending in --plot PLOT) and fails unless it exits 0 and PLOT
# is an SVG chart with the three series (candidate, reference plugin, plain memcpy) and points.
file(REMOVE ${PLOT})
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "exit code ${result}, expected 0\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT EXISTS ${PLOT})
  message(FATAL_ERROR "no plot written at ${PLOT}:\n${err}")
endif()
file(READ ${PLOT} svg)
foreach(pattern "^<\\?xml version=\"1.0\" encoding=\"UTF-8\"\\?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
                "class=\"panel-title\"[^>]*>htod_async</text>"
                "data-series=\"candidate\"><polyline points=\"[0-9.]+,[0-9.]+ [0-9.]+,[0-9.]+ "
                "data-series=\"reference plugin\"><polyline"
                "data-series=\"plain memcpy\"><polyline"
                "<title>candidate, 64KiB: [0-9.]+ GB/s</title>"
                ">copy size \\(log2 scale\\)</text>")
  if(NOT svg MATCHES "${pattern}")
    message(FATAL_ERROR "the plot does not match '${pattern}':\n${svg}")
  endif()
endforeach()
