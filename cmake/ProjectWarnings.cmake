# Warnings everywhere in this project, C and C++ alike. They are errors when
# CONFORMANCE_WERROR is ON: the presets and CI turn it on, so new warnings never land; a
# plain `cmake -S . -B build` leaves it off, so a newer compiler's new (or false-positive)
# warning cannot stop someone from building the tool.
option(CONFORMANCE_WERROR "Treat compiler warnings as errors" OFF)
add_compile_options(
  -Wall -Wextra
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>)
if(CONFORMANCE_WERROR)
  add_compile_options(-Werror)
  # GCC 12's -Wrestrict misfires inside libstdc++'s own std::string concatenation at -O3
  # (GCC bug 105329): 16 translation units of plain `a + b` fail a Release build. It stays a
  # warning there; every other warning remains an error, and the other presets keep it one.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13
     AND CMAKE_BUILD_TYPE STREQUAL "Release")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-error=restrict>)
  endif()
endif()
