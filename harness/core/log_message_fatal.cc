// tensorflow::internal::LogMessageFatal: the one TensorFlow C++ class plugins built on the C API
// import (DirectML's plugin, through the LOG(FATAL)/CHECK macros of TensorFlow 2.10's headers
// it was compiled with; docs/tensorflow/plugin_imports.md). The plugin constructs the object in
// its own storage, streams the message into it and destroys it; the destructor logs the line
// ("F file:line] message") and aborts, as TensorFlow's does. The isolate layer reads that line
// back, so the crash report names the plugin's fatal error and its message.
//
// The layout is the one TensorFlow 2.10 compiles (measured on the tensorflow-cpu 2.10.1 wheel's
// LogMessage constructor): an std::ostringstream base, then the file name, the line and the
// severity (offsets 0x70, 0x78, 0x7c of the base-object layout), then the virtual base. GCC lays
// out this class the same way, so the plugin's inline code and ours agree on every offset.
// Only the constructor and destructors of LogMessageFatal are exported (pywrap_exports.map).
#include <sstream>

#include "core/export.h"
#include "core/log_line.h"

namespace tensorflow::internal {

class LogMessage : public std::ostringstream {
 public:
  LogMessage(const char* file, int line, int severity)
      : file_(file != nullptr ? file : "?"), line_(line), severity_(severity) {}
  ~LogMessage() override = default;
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;

 protected:
  std::string Where() const { return std::string(file_) + ":" + std::to_string(line_); }

 private:
  const char* file_;
  int line_;
  [[maybe_unused]] int severity_;
};

class CONFORMANCE_CORE_API LogMessageFatal : public LogMessage {
 public:
  LogMessageFatal(const char* file, int line);
  [[noreturn]] ~LogMessageFatal() override;
  LogMessageFatal(const LogMessageFatal&) = delete;
  LogMessageFatal& operator=(const LogMessageFatal&) = delete;
};

constexpr int kFatalSeverity = 3;  // TensorFlow's FATAL

LogMessageFatal::LogMessageFatal(const char* file, int line)
    : LogMessage(file, line, kFatalSeverity) {}

LogMessageFatal::~LogMessageFatal() { conformance::core::LogFatalAndAbort(Where(), str()); }

}  // namespace tensorflow::internal
