# What a sanitizer build (the asan and tsan presets: -fsanitize= in CMAKE_CXX_FLAGS) registers and
# builds.
# It registers no test that runs real TensorFlow (CTest labels `tensorflow` and `production`):
# TensorFlow's uninstrumented libraries would be loaded under the sanitizer's runtime (ASan must
# come first in the process, TSan reports TensorFlow's own thread pools), which measures
# TensorFlow, not the suite. CONFORMANCE_TENSORFLOW_TESTS says so to every folder, including the
# tools under conformance/ that only those tests run.
set(CONFORMANCE_SANITIZED_BUILD OFF)
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
  set(CONFORMANCE_SANITIZED_BUILD ON)
endif()
set(CONFORMANCE_TENSORFLOW_TESTS ON)
# A sanitized build is a Debug build (assertions on), compiled at -Og rather than -O0: the
# instrumented code then runs 2 to 3 times faster (the reference plugin's default run under ASan:
# 13 -> 6 s wall, 14 -> 4.5 CPU-s), for about 10% more compile time, and the tree is compiled at
# the same level as the default preset's. ASan's own advice is -O1 or more for usable speed;
# -Og keeps the line tables and frames that its reports and the crash symbolizer read.
if(CONFORMANCE_SANITIZED_BUILD)
  add_compile_options($<$<CONFIG:Debug>:-Og>)
endif()
if(CONFORMANCE_SANITIZED_BUILD)
  set(CONFORMANCE_TENSORFLOW_TESTS OFF)
endif()

# The targets no test of a sanitized build uses: the plugins and tools only the `tensorflow`
# tests run, and what is run by hand (the benchmarks, the 306-op timing plugin), which the
# unsanitized presets still compile. There they are left out of `all`, which CI's asan step
# builds (5.5% of a build's job-seconds, BENCHMARKS.md "CI's time, session 35"). They stay
# targets: a target in `all` that depends on one still builds it, and
# `cmake --build build/asan --target NAME` builds one by hand.
function(conformance_not_in_sanitized_all)
  if(CONFORMANCE_SANITIZED_BUILD)
    set_target_properties(${ARGN} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
endfunction()
