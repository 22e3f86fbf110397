#pragma once
// The pipe between a unit's child and the parent: one JSON object per line, each a
// CheckResult, then an end-of-unit marker once run() returned. A missing marker is how the
// parent knows the unit did not finish on its own.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance::isolate {

// Child side. Writes straight to the pipe (no buffering) so a result emitted just before a
// crash is not lost with the process.
class PipeResultSink final : public ResultSink {
 public:
  explicit PipeResultSink(int fd) : fd_(fd) {}
  void Emit(CheckResult result) override;
  void WriteEndOfUnit();
  // Instead of the end marker when run() threw: the unit did not finish.
  void WriteUncaughtException(const std::string& description);

 private:
  void WriteLine(std::string line);
  int fd_;
};

// Parent side. Accepts the stream in arbitrary chunks; lines may span many reads.
class ResultStreamDecoder {
 public:
  void Feed(std::string_view bytes);

  bool end_of_unit() const { return end_of_unit_; }
  const std::optional<std::string>& uncaught_exception() const { return uncaught_exception_; }
  std::vector<CheckResult>& results() { return results_; }
  // Lines that were not a valid record (corruption, or something else writing to the pipe).
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  void DecodeLine(std::string_view line);

  std::string pending_;
  std::size_t scanned_ = 0;  // bytes of pending_ known to hold no newline
  bool end_of_unit_ = false;
  std::optional<std::string> uncaught_exception_;
  std::vector<CheckResult> results_;
  std::vector<std::string> errors_;
};

}  // namespace conformance::isolate
