#pragma once
// The pipe between a unit's child and the parent: one JSON object per line, each carrying the
// unit's secret token and either a CheckResult, the end-of-unit marker (written once run()
// returned) or an uncaught exception. A missing marker is how the parent knows the unit did
// not finish on its own; a missing or wrong token is how it knows a line was not written by
// the harness (a plugin writing to file descriptors it found, or a corrupted stream).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance::isolate {

// Child side. Writes straight to the pipe (no buffering) so a result emitted just before a
// crash is not lost with the process.
class PipeResultSink final : public ResultSink {
 public:
  PipeResultSink(int fd, std::string token) : fd_(fd), token_(std::move(token)) {}
  void Emit(CheckResult result) override;
  void WriteEndOfUnit();
  // Instead of the end marker when run() threw: the unit did not finish.
  void WriteUncaughtException(const std::string& description);

 private:
  void WriteRecord(nlohmann::json record);
  int fd_;
  std::string token_;
};

// Parent side. Accepts the stream in arbitrary chunks; lines may span many reads.
class ResultStreamDecoder {
 public:
  explicit ResultStreamDecoder(std::string token) : token_(std::move(token)) {}
  void Feed(std::string_view bytes);

  bool end_of_unit() const { return end_of_unit_; }
  const std::optional<std::string>& uncaught_exception() const { return uncaught_exception_; }
  std::vector<CheckResult>& results() { return results_; }
  // Lines that were not a valid record of this unit: corruption, or something other than the
  // harness writing to the pipe (no token, or the wrong one).
  const std::vector<std::string>& errors() const { return errors_; }
  // How many of errors() were well-formed JSON without the unit's token.
  std::size_t forged_count() const { return forged_count_; }

 private:
  void DecodeLine(std::string_view line);

  std::string token_;
  std::string pending_;
  std::size_t scanned_ = 0;  // bytes of pending_ known to hold no newline
  bool end_of_unit_ = false;
  std::optional<std::string> uncaught_exception_;
  std::vector<CheckResult> results_;
  std::vector<std::string> errors_;
  std::size_t forged_count_ = 0;
};

}  // namespace conformance::isolate
