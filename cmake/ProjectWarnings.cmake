# Warnings are errors everywhere in this project, C and C++ alike.
add_compile_options(
  -Wall -Wextra -Werror
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>)
