#include "isolate/signal_names.h"

#include <cstring>

namespace conformance::isolate {

// sigabbrev_np/sigdescr_np (glibc >= 2.32) are thread-safe, unlike strsignal.

std::string SignalName(int signal_number) {
  if (const char* abbreviation = sigabbrev_np(signal_number)) {
    return std::string("SIG") + abbreviation;
  }
  return "signal " + std::to_string(signal_number);
}

std::string SignalDescription(int signal_number) {
  if (const char* description = sigdescr_np(signal_number)) return description;
  return "unknown signal";
}

}  // namespace conformance::isolate
