#include "report/terminal_colour.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace conformance {

bool ColourWanted(bool is_terminal, const char* no_color, const char* term) {
  if (!is_terminal) return false;
  if (no_color != nullptr && *no_color != '\0') return false;
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return true;
}

bool ColourWantedFor(int fd) {
  return ColourWanted(isatty(fd) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

}  // namespace conformance
