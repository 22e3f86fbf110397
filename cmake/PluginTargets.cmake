# add_test_plugin(<name> SOURCES <files...> [LINK_AS pywrap|framework|both|none]
#                 [DEFINES <defs...>] [LIBRARIES <targets...>] [OUTPUT_NAME <name>]
#                 [PYWRAP_RUNPATH])
#
# Builds a PluggableDevice plugin shared library (lib<name>.so, or <OUTPUT_NAME>.so, in the
# build's lib/ folder) against the clean-room headers, linked the way real plugins are:
#   pywrap     (default) TensorFlow's plugin tutorial: -l:_pywrap_tensorflow_internal.so,
#              giving DT_NEEDED _pywrap_tensorflow_internal.so
#   framework  the custom-op way (tf.sysconfig.get_link_flags()):
#              -l:libtensorflow_framework.so.2, giving DT_NEEDED libtensorflow_framework.so.2
#   both       both of the above (as some Rust plugin crates do)
#   none       no core library at all: TF_* stay undefined (for defective plugins)
# PYWRAP_RUNPATH adds RUNPATH $ORIGIN/../tensorflow/python: installed by pip in
# <site-packages>/tensorflow-plugins, the plugin then finds the wheel's
# _pywrap_tensorflow_internal.so, which TensorFlow 2.19-2.21 need (their library of that name has no
# SONAME for a DT_NEEDED to match; harness/validate/pywrap_reach.h). Without it such a plugin is
# refused there, as TensorFlow 2.21.0's Python refuses it.
# No -Wl,--no-undefined: a plugin's TF_* references resolve against the core when it is
# loaded. Plugins keep default visibility so their entry points (SE_InitPlugin,
# TF_InitKernel, ...) are exported.
#
# Usable from any folder: include(PluginTargets) (cmake/ is on CMAKE_MODULE_PATH). The
# core targets (tf_core, tf_core_pywrap from harness/core) must be part of the build.
include_guard(GLOBAL)

function(add_test_plugin name)
  cmake_parse_arguments(ARG "PYWRAP_RUNPATH" "LINK_AS;OUTPUT_NAME" "SOURCES;DEFINES;LIBRARIES"
                        ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "add_test_plugin(${name}): SOURCES is required")
  endif()
  if(NOT ARG_LINK_AS)
    set(ARG_LINK_AS pywrap)
  endif()
  if(NOT ARG_LINK_AS MATCHES "^(pywrap|framework|both|none)$")
    message(FATAL_ERROR "add_test_plugin(${name}): LINK_AS must be pywrap, framework, both or none")
  endif()

  add_library(${name} SHARED ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE tf_c_headers ${ARG_LIBRARIES})
  if(ARG_DEFINES)
    target_compile_definitions(${name} PRIVATE ${ARG_DEFINES})
  endif()
  if(ARG_OUTPUT_NAME)
    set_target_properties(${name} PROPERTIES OUTPUT_NAME ${ARG_OUTPUT_NAME} PREFIX "")
  endif()

  # Link by file name with -L/-l:, exactly as the recipes do, instead of by target (which
  # would also give the same DT_NEEDED, but hide how a vendor's build looks). The -l: items
  # go after the objects (target_link_libraries, not link options) so that toolchains
  # defaulting to --as-needed still record the DT_NEEDED.
  set(core_dir ${CMAKE_BINARY_DIR}/lib)
  if(ARG_LINK_AS STREQUAL "pywrap" OR ARG_LINK_AS STREQUAL "both")
    add_dependencies(${name} tf_core_pywrap)
    target_link_libraries(${name} PRIVATE -L${core_dir} -l:_pywrap_tensorflow_internal.so)
  endif()
  if(ARG_LINK_AS STREQUAL "framework" OR ARG_LINK_AS STREQUAL "both")
    add_dependencies(${name} tf_core)
    target_link_libraries(${name} PRIVATE -L${core_dir} -l:libtensorflow_framework.so.2)
  endif()
  if(NOT ARG_LINK_AS STREQUAL "none")
    # _pywrap_tensorflow_internal.so needs libtensorflow_framework.so.2 at link time too.
    target_link_options(${name} PRIVATE -Wl,-rpath-link,${core_dir})
  endif()
  if(ARG_PYWRAP_RUNPATH)
    # CMake writes $ORIGIN through to the linker unexpanded; new dtags: DT_RUNPATH, as pip
    # plugins' own builds give (DT_RPATH would also apply to the libraries they load).
    set_target_properties(${name} PROPERTIES BUILD_RPATH "$ORIGIN/../tensorflow/python")
    target_link_options(${name} PRIVATE -Wl,--enable-new-dtags)
  endif()
  set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${core_dir})
endfunction()
