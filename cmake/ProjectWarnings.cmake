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
endif()
