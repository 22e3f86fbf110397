#include "installed_tensorflow/fatal_log.h"

#include <array>
#include <cctype>
#include <vector>
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
// TensorFlow 2.17 to 2.20 put the status on a line of its own:
//   F <file>:<line>] Non-OK-status: EXPR
//   Status: FAILED_PRECONDITION: MESSAGE
// and TensorFlow 2.5 and 2.6 spell the code in words (Status::ToString of their time):
//   F <file>:<line>] Non-OK-status: EXPR status: Failed precondition: MESSAGE
// TensorFlow 2.10 logs an error status read as a value (StatusOr::value()) as a FATAL line:
//   F <file>:<line>] Attempting to fetch value instead of handling error INTERNAL: MESSAGE
// (2.5 and 2.6: "... handling error Internal: MESSAGE").
// Any other FATAL message (a duplicate device factory) has no status: the whole
// message is kept and the code stays unknown.
namespace {

// A status message may span lines; they follow the log line up to the next log line, the
// stack trace or the end.
bool EndsMessage(const std::string& line) {
  static const std::regex kLogLine(R"(^([IWEF]\d{4} \d\d:\d\d:|\S+ \S+: [IWEF] |\*\*\* |\s+@ ))");
  return line.empty() || std::regex_search(line, kLogLine);
}

}  // namespace

std::optional<FatalLog> FindFatalLog(const std::string& output) {
  static const std::regex kFatalLine(
      R"(^(?:F\d{4} \d\d:\d\d:\S+\s+\d+ |\S+ \S+: F )\S+:\d+\] (.*?)\s*$)");
  static const std::regex kCheckOk(R"(^Check failed: .* is OK \(([A-Z_]+): ([\s\S]*)\)$)");
  // A code's name: NOT_FOUND, or in words as 2.5 and 2.6 write it ("Not found").
#define TF_CODE_NAME R"(([A-Z_]+|[A-Z][a-z]+(?: [a-z]+)*))"
  static const std::regex kNonOkStatus(R"(^Non-OK-status: [\s\S]*?\s[Ss]tatus: )" TF_CODE_NAME
                                       R"(: ([\s\S]*)$)");
  static const std::regex kFetchValue(
      R"(^Attempting to fetch value instead of handling error )" TF_CODE_NAME R"(: ([\s\S]*)$)");
#undef TF_CODE_NAME
  // An error status read as a value (StatusOr::value()) throws, and nothing catches it.
  static const std::regex kBadStatusOr(
      R"(^\s*what\(\):\s+Bad StatusOr access: ([A-Z_]+): (.*?)\s*$)");
  std::vector<std::string> lines;
  std::istringstream stream(output);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  std::optional<FatalLog> last;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch fatal;
    FatalLog log;
    log.line = lines[i];
    std::string body;
    if (std::regex_match(lines[i], fatal, kBadStatusOr)) {
      body = "Bad StatusOr access";
      log.code_name = fatal[1].str();
      log.message = fatal[2].str();
    } else if (std::regex_match(lines[i], fatal, kFatalLine)) {
      body = fatal[1].str();
      for (std::size_t next = i + 1; next < lines.size() && !EndsMessage(lines[next]); ++next) {
        body += "\n" + lines[next];
      }
      while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back())))
        body.pop_back();
      log.message = body;
      std::smatch status;
      if (std::regex_match(body, status, kCheckOk) ||
          std::regex_match(body, status, kNonOkStatus) ||
          std::regex_match(body, status, kFetchValue)) {
        log.code_name = status[1].str();
        log.message = status[2].str();
      }
    } else {
      continue;
    }
    // "Failed precondition" is FAILED_PRECONDITION.
    for (char& letter : log.code_name) {
      letter =
          letter == ' ' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
    }
    if (!log.code_name.empty()) log.code = CodeOfName(log.code_name);
    last = std::move(log);
  }
  return last;
}

}  // namespace tensorflow_driver
