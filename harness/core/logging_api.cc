// tensorflow/c/logging.h: TF_Log and TF_VLog write to stderr in TensorFlow's log layout
// (core/log_line.h). TF_Log(TF_FATAL, ...) aborts after logging, as in TensorFlow. Filtering
// follows TensorFlow's environment variables: TF_CPP_MIN_LOG_LEVEL (0 all, 1 no INFO, 2 no
// WARNING, 3 no ERROR; FATAL always shows) and TF_CPP_MAX_VLOG_LEVEL (TF_VLog(level) shows when
// level <= it; default 0, so TF_VLog(1, ...) is silent).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/log_line.h"
#include "tensorflow/c/logging.h"

namespace {

int EnvironmentLevel(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? 0 : std::atoi(value);  // NOLINT(cert-err34-c): TensorFlow's parse
}

std::string Format(const char* fmt, va_list arguments) {
  if (fmt == nullptr) return "";
  va_list counting;
  va_copy(counting, arguments);
  const int length = std::vsnprintf(nullptr, 0, fmt, counting);
  va_end(counting);
  if (length <= 0) return "";
  std::string text(static_cast<std::size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), fmt, arguments);
  text.resize(static_cast<std::size_t>(length));
  return text;
}

}  // namespace

void TF_Log(TF_LogLevel level, const char* fmt, ...) {
  va_list arguments;
  va_start(arguments, fmt);
  const std::string message = Format(fmt, arguments);
  va_end(arguments);
  if (level >= TF_FATAL) conformance::core::LogFatalAndAbort("TF_Log", message);
  if (static_cast<int>(level) < EnvironmentLevel("TF_CPP_MIN_LOG_LEVEL")) return;
  static constexpr char kSeverity[] = {'I', 'W', 'E'};
  conformance::core::WriteLogLine(kSeverity[level < TF_INFO ? 0 : level], "TF_Log", message);
}

void TF_VLog(int level, const char* fmt, ...) {
  if (level > EnvironmentLevel("TF_CPP_MAX_VLOG_LEVEL")) return;
  va_list arguments;
  va_start(arguments, fmt);
  const std::string message = Format(fmt, arguments);
  va_end(arguments);
  conformance::core::WriteLogLine('I', "TF_VLog", message);
}
