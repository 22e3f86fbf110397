# How much debug information a RelWithDebInfo build carries. Full -g is about a quarter of the
# compile time (24 random translation units of the default preset: 43.3 CPU-s at -O2 -g, 33.1 at
# -O2 -g1; the report's unity batch: 21.5 against 14.4), and CI compiles the whole tree at it.
# -g1 keeps what a backtrace needs: the symbol table and the line tables that the crash
# symbolizer (harness/isolate/symbolizer.cc) reads with libdw, and ASan's reports; it drops
# types and local variables, which only a debugger uses. So line tables are the default, and a
# developer who wants to inspect variables in gdb configures with
# -DCONFORMANCE_FULL_DEBUG_INFO=ON (the last -g option given wins).
option(CONFORMANCE_FULL_DEBUG_INFO "RelWithDebInfo builds carry full -g, not line tables only" OFF)
if(NOT CONFORMANCE_FULL_DEBUG_INFO)
  add_compile_options($<$<CONFIG:RelWithDebInfo>:-g1>)
endif()
