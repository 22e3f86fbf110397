#include "stream_executor/diagnostics.h"

#include <cstdio>

namespace reference_plugin {

void warn(std::string_view message) {
  // One fprintf call per line, so lines from concurrent threads do not interleave.
  std::fprintf(stderr, "[reference_plugin] warning: %.*s\n", static_cast<int>(message.size()),
               message.data());
}

}  // namespace reference_plugin
