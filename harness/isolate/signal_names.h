#pragma once
// Names for signals as they appear in results: "SIGSEGV" and "Segmentation fault".
#include <string>

namespace conformance::isolate {

std::string SignalName(int signal_number);         // "SIGSEGV"; "signal 42" if unknown
std::string SignalDescription(int signal_number);  // "Segmentation fault"

}  // namespace conformance::isolate
