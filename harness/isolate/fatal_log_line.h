#pragma once
// A plugin's fatal error, read back from what its process printed: TensorFlow's fatal log
// (LOG(FATAL), CHECK, TF_Log(TF_FATAL)) prints one line "<date> <time>: F <where>] <message>"
// and aborts. The mock core prints the same layout (core/log_line.h) for the fatal paths it
// hosts, so a SIGABRT report can say what the plugin said before it died instead of only
// "SIGABRT".
#include <optional>
#include <string>
#include <string_view>

namespace conformance::isolate {

struct FatalLogLine {
  std::string where;    // "file.cc:123", or the C API function that logged ("TF_Log")
  std::string message;  // the rest of the line
};

// The last fatal line of `output`, if any.
std::optional<FatalLogLine> LastFatalLogLine(std::string_view output);

}  // namespace conformance::isolate
