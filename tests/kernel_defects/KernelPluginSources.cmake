# kernel_plugin_sources(<out_var> <defines...>)
#
# The sources of one variant of the kernel stand-in plugin (kernel_plugin.cc and its kernel
# files), for add_test_plugin's SOURCES. Each file is compiled with the variant's -D switches only
# when it tests one of them, and is otherwise one shared object compiled once for every variant:
# each of the ~130 variants (here, tests/generated_cases, tests/installed_deaths) used to compile
# all of them, most of them with switches the file never reads, which was the largest part of the
# build's plugin compiles (BENCHMARKS.md, "CI time" and "CI's time, session 47").
include_guard(GLOBAL)
set(KERNEL_PLUGIN_DIR ${CMAKE_CURRENT_LIST_DIR})
set(KERNEL_PLUGIN_FILES kernel_plugin.cc edge_value_kernels.cc input_class_kernels.cc
                        random_kernels.cc string_kernels.cc variable_kernels.cc complex_kernels.cc
                        type_list_kernels.cc philox_kernels.cc quantized_kernels.cc
                        standin_kernels.cc fused_matmul_kernels.cc
                        dtype_cell_kernels.cc mkl_layout_kernels.cc source_kernels.cc
                        legacy_random_kernels.cc plugin_op_kernels.cc)
set_property(GLOBAL PROPERTY KERNEL_PLUGIN_FILES ${KERNEL_PLUGIN_FILES})
foreach(file ${KERNEL_PLUGIN_FILES})
  string(REPLACE ".cc" "" stem ${file})
  # As add_test_plugin compiles a plugin's own sources: PIC, the clean-room headers, and never
  # our sanitizers (these stand for vendors' plugins).
  add_library(kernel_plugin_plain_${stem} OBJECT ${KERNEL_PLUGIN_DIR}/${file})
  set_target_properties(kernel_plugin_plain_${stem} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(kernel_plugin_plain_${stem} PRIVATE tf_c_headers)
  target_compile_options(kernel_plugin_plain_${stem} PRIVATE -O1 -fno-sanitize=all)
  # Every includer passes this one path (kernel_plugin.cc wraps the reference plugin).
  target_compile_definitions(kernel_plugin_plain_${stem}
                             PRIVATE REFERENCE_PLUGIN_PATH="$<TARGET_FILE:reference_plugin>")
  file(READ ${KERNEL_PLUGIN_DIR}/${file} text)
  set_property(GLOBAL PROPERTY KERNEL_PLUGIN_TEXT_${stem} "${text}")
endforeach()

function(kernel_plugin_sources out_var)
  # The include guard leaves the file's variables in its first includer's scope only.
  set(KERNEL_PLUGIN_DIR ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  set(sources "")
  get_property(files GLOBAL PROPERTY KERNEL_PLUGIN_FILES)
  foreach(file ${files})
    string(REPLACE ".cc" "" stem ${file})
    get_property(text GLOBAL PROPERTY KERNEL_PLUGIN_TEXT_${stem})
    set(reads_a_switch FALSE)
    foreach(define ${ARGN})
      string(REGEX REPLACE "=.*" "" name "${define}")
      string(FIND "${text}" "defined(${name})" at)
      if(NOT at EQUAL -1)
        set(reads_a_switch TRUE)
      endif()
    endforeach()
    if(reads_a_switch)
      list(APPEND sources ${KERNEL_PLUGIN_DIR}/${file})
    else()
      list(APPEND sources $<TARGET_OBJECTS:kernel_plugin_plain_${stem}>)
    endif()
  endforeach()
  set(${out_var} ${sources} PARENT_SCOPE)
endfunction()
