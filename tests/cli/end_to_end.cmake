# End-to-end tests of the real plugin_conformance executable: every row of issue 6 §1 (no
# vacuous CONFORMANT), TensorFlow's refusal gating the runtime tier, report files that never
# destroy what they point at, and SIGPIPE. Included at the end of the top-level directory
# (cmake_language(DEFER)), when the reference plugin and the defective plugins exist.
if(NOT TARGET plugin_conformance OR NOT TARGET reference_plugin)
  return()
endif()
set(tool $<TARGET_FILE:plugin_conformance>)
set(reference $<TARGET_FILE:reference_plugin>)
set(script ${CMAKE_CURRENT_LIST_DIR}/check_exit_code.cmake)

# cli_row(<name> <expected exit code> <output regex> <arguments...>)
function(cli_row name expected output)
  string(REPLACE ";" "\\;" output_escaped "${output}")
  add_test(NAME plugin_conformance.${name}
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${tool};${ARGN}" -DEXPECTED=${expected}
                   "-DEXPECT_OUTPUT=${output_escaped}" -P ${script})
endfunction()

# A real TensorFlow's folder on LD_LIBRARY_PATH (a vendor's usual shell) must not replace the
# mock core the tool links: the run is the same as without it.
add_test(NAME plugin_conformance.foreign_tensorflow_on_library_path
         COMMAND ${CMAKE_COMMAND}
                 "-DCOMMAND=${CMAKE_COMMAND};-E;env;LD_LIBRARY_PATH=$<TARGET_FILE_DIR:foreign_tensorflow>;${tool};${reference};--tier;load,runtime"
                 -DEXPECTED=0 "-DEXPECT_OUTPUT=\nCONFORMANT" -P ${script})

# ---- Issue 6 §1: each row exits non-zero with a message naming the problem ----------------
cli_row(row01_missing_plugin 3 "could not be loaded" /nonexistent.so)
cli_row(row02_missing_plugin_unknown_profile 2 "unknown profile 'tf2.100' \\(did you mean 'tf2.10'\\?\\)"
        /nonexistent.so --profile tf2.100)
cli_row(row03_unknown_profile 2 "unknown profile 'tf2.100'" ${reference} --profile tf2.100)
# An empty argument cannot travel through a CMake list: these rows go through sh.
function(cli_row_with_empty_value name option message)
  add_test(NAME plugin_conformance.${name}
           COMMAND sh -c "\"$0\" \"$1\" ${option} '' 2>&1 | grep -F -- \"$2\" && \"$0\" \"$1\" ${option} '' 2>/dev/null; test $? -eq 2"
                   ${tool} ${reference} "${message}")
endfunction()
cli_row_with_empty_value(row04_empty_profile --profile "--profile: empty profile name")
cli_row(row05_missing_plugin_tier_without_checks 3 "NOT CONFORMANT: the plugin could not be loaded"
        /nonexistent.so --tier kernels)
cli_row(row06_unknown_tier 2 "unknown tier 'nosuchtier'" ${reference} --tier nosuchtier)
cli_row(row07_filter_selects_nothing 2 "--filter 'no.such.check.\\*' selects no check"
        ${reference} --filter "no.such.check.*")
cli_row(row08_missing_plugin_filter_selects_nothing 3 "could not be loaded"
        /nonexistent.so --filter "no.such.check.*")
cli_row(row09_tier_and_filter_disjoint 2 "selects no check of tier 'load'"
        ${reference} --tier load --filter "runtime.*")
cli_row(row10_not_an_elf_file 3 "the plugin could not be loaded" /etc/hostname)
# The same rules, seen from the other side.
# A tier named with --tier whose checks are all not_supported verified nothing (unnamed, it is
# a module the plugin does not provide, which TensorFlow accepts too).
cli_row(named_tier_all_not_supported 1 "no check passed in tier kernels"
        $<TARGET_FILE:kernel_defect_no_kernels> --tier kernels)
cli_row(misspelt_filter 2 "did you mean 'load.se.platform.\\*'" ${reference} --filter "load.se.platfrom.*")
cli_row(misspelt_option 2 "plugin_conformance: error: unknown option '--tiers' \\(did you mean '--tier'\\?\\)"
        ${reference} --tiers load)
cli_row(option_before_plugin 0 "CONFORMANT" --tier load --filter "load.library.*" ${reference})
cli_row(unknown_tier_before_plugin 2 "unknown tier 'bogus'" --tier bogus ${reference})
cli_row(timeout_not_a_number 2 "--timeout: 'abc' is not a number" ${reference} --timeout abc)
cli_row(seed_negative 2 "--seed: '-1' is negative" ${reference} --seed -1)
cli_row(seed_out_of_range 2 "--seed: '18446744073709551616' is out of range"
        ${reference} --seed 18446744073709551616)
cli_row(co_load_missing 2 "--co-load: '/nonexistent.so'" ${reference} --co-load /nonexistent.so)
cli_row_with_empty_value(json_empty_path --json "--json: an empty file name")
cli_row(json_and_junit_same_path 2 "--json and --junit name the same file"
        ${reference} --json same.out --junit same.out)

# ---- Issue 6 §5: TensorFlow refuses → runtime skipped, unless --force-runtime ----------------
if(TARGET load_defect_stream_executor_null_mem_zero)
  set(refused $<TARGET_FILE:load_defect_stream_executor_null_mem_zero>)
  cli_row(refused_plugin_skips_runtime 1
          "runtime[^\n]*not run: TensorFlow refuses the plugin \\(TF_Code 9\\): 'mem_zero' field"
          ${refused} --tier runtime)
  cli_row(force_runtime_runs_it_anyway 1 "FAIL +runtime\\."
          ${refused} --tier load,runtime --force-runtime)
endif()

# ---- Issue 7 §2, §5: report files and SIGPIPE --------------------------------------------
add_test(NAME plugin_conformance.report_files
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/report_files.sh ${tool} ${reference})

# ---- Issue 6 §9: every tool handles --help and rejects unknown options -------------------
foreach(tool_target plugin_conformance scenario_catalogue kernel_catalogue check_catalogue_page
                    plugin_bench plugin_conformance_tf_driver)
  if(TARGET ${tool_target})
    add_test(NAME tool_options.${tool_target}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/tool_options.sh $<TARGET_FILE:${tool_target}>)
  endif()
endforeach()
