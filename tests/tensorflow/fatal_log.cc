#include "fatal_log.h"

#include <array>
#include <regex>
#include <sstream>
#include <utility>

namespace tensorflow_driver {

std::optional<int> CodeOfName(const std::string& name) {
  static constexpr std::array<std::pair<const char*, int>, 16> kCodes = {{
      {"CANCELLED", 1},
      {"UNKNOWN", 2},
      {"INVALID_ARGUMENT", 3},
      {"DEADLINE_EXCEEDED", 4},
      {"NOT_FOUND", 5},
      {"ALREADY_EXISTS", 6},
      {"PERMISSION_DENIED", 7},
      {"RESOURCE_EXHAUSTED", 8},
      {"FAILED_PRECONDITION", 9},
      {"ABORTED", 10},
      {"OUT_OF_RANGE", 11},
      {"UNIMPLEMENTED", 12},
      {"INTERNAL", 13},
      {"UNAVAILABLE", 14},
      {"DATA_LOSS", 15},
      {"UNAUTHENTICATED", 16},
  }};
  for (const auto& [code_name, code] : kCodes) {
    if (name == code_name) return code;
  }
  return std::nullopt;
}

// Two log formats carry the same facts. TensorFlow 2.15 (its own logger):
//   2026-11-24 16:40:48.442375: F tensorflow/c/c_api_experimental.cc:747] Non-OK-status: EXPR
//   status: FAILED_PRECONDITION: MESSAGE
// TensorFlow 2.21 (absl's CHECK through TF_CHECK_OK):
//   F0000 00:00:1795538448.010513   19799 c_api_experimental.cc:746] Check failed: (EXPR) is OK
//   (FAILED_PRECONDITION: MESSAGE)
// (each one line). A status thrown as absl::BadStatusOrAccess ends in std::terminate's
//   what():  Bad StatusOr access: INTERNAL: MESSAGE
// Any other FATAL message (a duplicate device factory) has no status: the whole
// message is kept and the code stays unknown.
std::optional<FatalLog> FindFatalLog(const std::string& output) {
  static const std::regex kFatalLine(
      R"(^(?:F\d{4} \d\d:\d\d:\S+\s+\d+ |\S+ \S+: F )\S+:\d+\] (.*?)\s*$)");
  static const std::regex kCheckOk(R"(^Check failed: .* is OK \(([A-Z_]+): (.*)\)$)");
  static const std::regex kNonOkStatus(R"(^Non-OK-status: .*? status: ([A-Z_]+): (.*)$)");
  // An error status read as a value (StatusOr::value()) throws, and nothing catches it.
  static const std::regex kBadStatusOr(
      R"(^\s*what\(\):\s+Bad StatusOr access: ([A-Z_]+): (.*?)\s*$)");
  std::optional<FatalLog> last;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch fatal;
    if (std::regex_match(line, fatal, kBadStatusOr)) {
      FatalLog log;
      log.line = line;
      log.code_name = fatal[1].str();
      log.code = CodeOfName(log.code_name);
      log.message = fatal[2].str();
      last = std::move(log);
      continue;
    }
    if (!std::regex_match(line, fatal, kFatalLine)) continue;
    FatalLog log;
    log.line = line;
    log.message = fatal[1].str();
    const std::string body = fatal[1].str();
    std::smatch status;
    if (std::regex_match(body, status, kCheckOk) || std::regex_match(body, status, kNonOkStatus)) {
      log.code_name = status[1].str();
      log.code = CodeOfName(log.code_name);
      log.message = status[2].str();
    }
    last = std::move(log);
  }
  return last;
}

}  // namespace tensorflow_driver
