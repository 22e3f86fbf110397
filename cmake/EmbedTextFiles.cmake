# embed_text_files(TARGET <name> NAMESPACE <ns> FILES <paths...>)
# Compiles data files (catalogue, profiles) into a static library so the tools never
# depend on where they were installed. Each file becomes an entry of
#   const std::vector<std::pair<std::string_view, std::string_view>>& <ns>::EmbeddedFiles()
# keyed by the path relative to the project root.
function(embed_text_files)
  cmake_parse_arguments(ARG "" "TARGET;NAMESPACE" "FILES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_embedded.cc)
  set(script ${PROJECT_SOURCE_DIR}/cmake/EmbedTextFilesScript.cmake)
  # A ';' would split the command line; the script splits on '|' instead.
  string(REPLACE ";" "|" file_list "${ARG_FILES}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNS=${ARG_NAMESPACE} -DROOT=${PROJECT_SOURCE_DIR}
            "-DFILES=${file_list}" -P ${script}
    DEPENDS ${ARG_FILES} ${script}
    COMMENT "Embedding ${ARG_TARGET} data files"
    VERBATIM)
  add_library(${ARG_TARGET} STATIC ${out})
endfunction()
