#include "isolate/result_channel.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>

#include <nlohmann/json.hpp>

namespace conformance::isolate {
namespace {

constexpr std::string_view kEndOfUnitKey = "end_of_unit";
constexpr std::string_view kUncaughtExceptionKey = "uncaught_exception";

}  // namespace

void PipeResultSink::Emit(CheckResult result) {
  // Plugins hand us arbitrary bytes (names, messages); invalid UTF-8 must not turn into an
  // exception in the child, so it is replaced rather than rejected.
  WriteLine(nlohmann::json(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void PipeResultSink::WriteEndOfUnit() {
  WriteLine(nlohmann::json{{kEndOfUnitKey, true}}.dump());
}

void PipeResultSink::WriteUncaughtException(const std::string& description) {
  WriteLine(nlohmann::json{{kUncaughtExceptionKey, description}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void PipeResultSink::WriteLine(std::string line) {
  line.push_back('\n');
  std::string_view rest = line;
  while (!rest.empty()) {
    const ssize_t written = write(fd_, rest.data(), rest.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      // The parent is gone; nobody is left to report to.
      _exit(125);
    }
    rest.remove_prefix(static_cast<std::size_t>(written));
  }
}

void ResultStreamDecoder::Feed(std::string_view bytes) {
  pending_.append(bytes);
  std::size_t line_start = 0;
  for (;;) {
    const std::size_t newline = pending_.find('\n', std::max(scanned_, line_start));
    if (newline == std::string::npos) break;
    DecodeLine(std::string_view(pending_).substr(line_start, newline - line_start));
    line_start = newline + 1;
  }
  pending_.erase(0, line_start);
  scanned_ = pending_.size();
}

void ResultStreamDecoder::DecodeLine(std::string_view line) {
  if (line.empty()) return;
  auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    errors_.push_back("not a JSON object: " + std::string(line.substr(0, 120)));
    return;
  }
  if (json.contains(kEndOfUnitKey)) {
    end_of_unit_ = true;
    return;
  }
  if (auto it = json.find(kUncaughtExceptionKey); it != json.end() && it->is_string()) {
    uncaught_exception_ = it->get<std::string>();
    return;
  }
  try {
    results_.push_back(json.get<CheckResult>());
  } catch (const std::exception& error) {
    errors_.push_back(std::string("not a result record (") + error.what() +
                      "): " + std::string(line.substr(0, 120)));
  }
}

}  // namespace conformance::isolate
