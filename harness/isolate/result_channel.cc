#include "isolate/result_channel.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>

#include <nlohmann/json.hpp>

namespace conformance::isolate {
namespace {

constexpr std::string_view kTokenKey = "token";
constexpr std::string_view kResultKey = "result";
constexpr std::string_view kEndOfUnitKey = "end_of_unit";
constexpr std::string_view kUncaughtExceptionKey = "uncaught_exception";

std::string Excerpt(std::string_view line) { return std::string(line.substr(0, 120)); }

}  // namespace

void PipeResultSink::Emit(CheckResult result) {
  WriteRecord(nlohmann::json{{kResultKey, std::move(result)}});
}

void PipeResultSink::WriteEndOfUnit() { WriteRecord(nlohmann::json{{kEndOfUnitKey, true}}); }

void PipeResultSink::WriteUncaughtException(const std::string& description) {
  WriteRecord(nlohmann::json{{kUncaughtExceptionKey, description}});
}

void PipeResultSink::WriteRecord(nlohmann::json record) {
  record[kTokenKey] = token_;
  // Plugins hand us arbitrary bytes (names, messages); invalid UTF-8 must not turn into an
  // exception in the child, so it is replaced rather than rejected.
  std::string line = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  // One write() per record where the pipe allows (up to PIPE_BUF bytes it is atomic), so a
  // plugin thread writing to the same pipe cannot split a short record.
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
    errors_.push_back("not a JSON object: " + Excerpt(line));
    return;
  }
  const auto token = json.find(kTokenKey);
  if (token == json.end() || !token->is_string() || token->get<std::string>() != token_) {
    ++forged_count_;
    errors_.push_back(
        "a record without this unit's token, so not written by the harness (a plugin writing "
        "to file descriptors it does not own?): " +
        Excerpt(line));
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
    results_.push_back(json.at(kResultKey).get<CheckResult>());
  } catch (const std::exception& error) {
    errors_.push_back(std::string("not a result record (") + error.what() + "): " + Excerpt(line));
  }
}

}  // namespace conformance::isolate
