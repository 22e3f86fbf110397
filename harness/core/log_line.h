#pragma once
// The mock core's log lines, in TensorFlow's layout ("2026-11-28 16:30:00.123456: W where]
// message"), on stderr: the unit's child captures stderr, and the isolate layer reads the last
// fatal line back (isolate/fatal_log_line.h) to name a plugin's fatal error in its crash report.
#include <string_view>

namespace conformance::core {

// severity: 'I', 'W', 'E' or 'F'. `where` is "file:line" for a C++ log message, or the C API
// function that logged.
void WriteLogLine(char severity, std::string_view where, std::string_view message);

// Writes the line with severity 'F' and aborts, as TensorFlow's fatal log does.
[[noreturn]] void LogFatalAndAbort(std::string_view where, std::string_view message);

}  // namespace conformance::core
