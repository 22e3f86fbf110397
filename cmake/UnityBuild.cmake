# Unity builds: the harness's ~240 translation units parse the same heavy headers
# (nlohmann/json, yaml-cpp, CLI11, the C API), and the tests' parse gtest and gmock, again and
# again; compiled in batches they are parsed once per batch. A file whose file-local names clash
# with a sibling's, or that is better compiled beside its batch than inside it, is listed in
# conformance_unity_build's SKIP and compiled on its own.
# .ci/bootstrap turns it on for every preset it builds (a fresh default build: 505 -> 332 s on 2
# cores, BENCHMARKS.md, "Session 26"). clang-tidy still checks each file on its own: .ci/tidy expands every
# batch of the default preset's compile_commands.json into one entry per file
# (.ci/per_file_database.py).
option(CONFORMANCE_UNITY_BUILD "Compile the targets conformance_unity_build names in unity batches" OFF)

# conformance_unity_build(TARGETS <t>... [BATCH <n>] [SKIP <target>:<source>...])
# At -Og, parsing the headers is about half of a batch's compile (2.8 of 6.4 CPU-s for
# conformance_kernel_scenarios'), so every batch or file compiled on its own costs that again:
# batches hold up to 32 files, and SKIP lists only files that really clash (checked by compiling
# each with its batch) or that would end the main job's build alone on one core.
function(conformance_unity_build)
  cmake_parse_arguments(ARG "" "BATCH" "TARGETS;SKIP" ${ARGN})
  if(NOT CONFORMANCE_UNITY_BUILD)
    return()
  endif()
  if(NOT ARG_BATCH)
    set(ARG_BATCH 32)
  endif()
  foreach(target ${ARG_TARGETS})
    if(TARGET ${target})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARG_BATCH})
    endif()
  endforeach()
  foreach(skip ${ARG_SKIP})
    string(REPLACE ":" ";" parts "${skip}")
    list(GET parts 0 target)
    list(GET parts 1 source)
    if(TARGET ${target})
      get_target_property(dir ${target} SOURCE_DIR)
      set_source_files_properties(${dir}/${source} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
