# plugin_conformance_add_test(NAME <name> PLUGIN <target-or-path>
#                             [TIERS <tier>...] [PROFILE <profile>] [WAIVERS <file>]
#                             [SCENARIOS <dir>...] [JUNIT <file>] [ARGS <extra options>...])
#
# Registers the CTest test <name>: plugin_conformance on the plugin, passing when the plugin is
# conformant (exit code 0). The JUnit report goes to JUNIT (default:
# ${CMAKE_CURRENT_BINARY_DIR}/<name>.junit.xml). GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX in the
# environment of ctest shard the run, as for any gtest binary.
#
# When PLUGIN names a target, it is built before the test runs: a setup test
# (<name>.build_plugin, a fixture) builds it, so `ctest` alone never tests a stale plugin.
include_guard(GLOBAL)

function(plugin_conformance_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;PLUGIN;PROFILE;WAIVERS;JUNIT"
                        "TIERS;SCENARIOS;ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "plugin_conformance_add_test: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required NAME PLUGIN)
    if(NOT ARG_${required})
      message(FATAL_ERROR "plugin_conformance_add_test: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET plugin_conformance::plugin_conformance)
    message(FATAL_ERROR "plugin_conformance_add_test: find_package(plugin_conformance) first")
  endif()

  set(command $<TARGET_FILE:plugin_conformance::plugin_conformance>)
  if(TARGET ${ARG_PLUGIN})
    list(APPEND command $<TARGET_FILE:${ARG_PLUGIN}>)
  else()
    get_filename_component(plugin_path "${ARG_PLUGIN}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command ${plugin_path})
  endif()
  if(ARG_TIERS)
    string(REPLACE ";" "," tiers "${ARG_TIERS}")
    list(APPEND command --tier ${tiers})
  endif()
  if(ARG_PROFILE)
    list(APPEND command --profile ${ARG_PROFILE})
  endif()
  if(ARG_WAIVERS)
    get_filename_component(waivers "${ARG_WAIVERS}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command --waivers ${waivers})
  endif()
  foreach(dir IN LISTS ARG_SCENARIOS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command --scenarios ${dir})
  endforeach()
  if(NOT ARG_JUNIT)
    set(ARG_JUNIT ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.junit.xml)
  endif()
  get_filename_component(junit "${ARG_JUNIT}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  list(APPEND command --junit ${junit} ${ARG_ARGS})

  add_test(NAME ${ARG_NAME} COMMAND ${command})
  set_tests_properties(${ARG_NAME} PROPERTIES LABELS plugin_conformance)

  if(TARGET ${ARG_PLUGIN})
    set(build_test ${ARG_NAME}.build_plugin)
    add_test(NAME ${build_test}
             COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target ${ARG_PLUGIN}
                     --config $<CONFIG>)
    # One build at a time: concurrent builds of one tree fight over its lock.
    set_tests_properties(${build_test} PROPERTIES
      FIXTURES_SETUP ${build_test} RESOURCE_LOCK plugin_conformance_build)
    set_tests_properties(${ARG_NAME} PROPERTIES FIXTURES_REQUIRED ${build_test})
  endif()
endfunction()
