# The flags of a RelWithDebInfo build (the presets' `default`): the build the whole suite is
# tested in on every CI run, and the README's main job. CMake's -O2 -g is replaced by -Og -g1,
# which compiles the whole tree about a third faster and runs the suite about as fast
# (BENCHMARKS.md, ".ci/run in 20 minutes", session 25: a fresh default build 667 s -> 490 s on
# 2 cores, `ctest --preset default` 237 s -> 244 s, the same 1444 tests passing):
#   -Og   skips the optimisation passes that cost compile time but keeps the code from -O0's
#         stack traffic;
#   -g1   keeps what a backtrace needs: the symbol table and the line tables that the crash
#         symbolizer (harness/isolate/symbolizer.cc) reads with libdw, and ASan's reports; it
#         drops types and local variables, which only a debugger uses.
# The sanitizer presets (Debug: -O0 -g) get -g1 too: ASan's and UBSan's reports and the crash
# symbolizer need only the line tables, and full debug information costs about 9% more compile
# time per file and much larger objects to link (an asan test object: 10.3 -> 8.5 MB).
# What ships is built by the Release preset (-O3, which CI also builds, warnings as errors).
# -DCONFORMANCE_FAST_COMPILE=OFF restores CMake's own flags (-O2 -g, and Debug's -g), to profile
# or to inspect variables in gdb.
option(CONFORMANCE_FAST_COMPILE "RelWithDebInfo compiles at -Og -g1 instead of -O2 -g" ON)
if(CONFORMANCE_FAST_COMPILE)
  # Given after CMAKE_<LANG>_FLAGS_RELWITHDEBINFO, so these win.
  add_compile_options($<$<CONFIG:RelWithDebInfo>:-Og> $<$<CONFIG:RelWithDebInfo>:-g1>
                      $<$<CONFIG:Debug>:-g1>)
endif()
