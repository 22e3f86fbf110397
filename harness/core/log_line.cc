#include "core/log_line.h"

#include <sys/time.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace conformance::core {

void WriteLogLine(char severity, std::string_view where, std::string_view message) {
  timeval now{};
  gettimeofday(&now, nullptr);
  tm local{};
  localtime_r(&now.tv_sec, &local);
  char stamp[32];
  const std::size_t length = std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &local);
  // One fprintf per line: lines of concurrent threads do not interleave mid-line.
  const std::string where_text(where);
  const std::string message_text(message);
  std::fprintf(stderr, "%.*s.%06ld: %c %s] %s\n", static_cast<int>(length), stamp,
               static_cast<long>(now.tv_usec), severity, where_text.c_str(), message_text.c_str());
  std::fflush(stderr);
}

void LogFatalAndAbort(std::string_view where, std::string_view message) {
  WriteLogLine('F', where, message);
  std::abort();
}

}  // namespace conformance::core
