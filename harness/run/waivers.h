#pragma once
// The waivers file: expected failures, each with a reason, so a vendor can gate CI on
// "nothing new broke" while known issues are being fixed. YAML, a list of entries:
//
//   - id: runtime.memcpy.dtod.*        # glob over check ids (same syntax as --filter)
//     reason: "DMA engine bug, vendor ticket 1234"
//     profile: tf2.15                   # optional: glob over --profile; default all
//     until: 2026-12-31                 # optional: last day (UTC) the waiver applies
//     flaky: true                       # optional: waives the check only when it is flaky
//                                       # (--repeat saw different outcomes), never a failure
//
// Unknown keys are errors (a typo would otherwise silently widen or drop a waiver).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/usage_error.h"

namespace conformance {

struct Waiver {
  std::string id;  // glob over check ids
  std::string reason;
  std::string profile;  // glob over the profile name; empty: every profile
  std::optional<std::chrono::year_month_day> until;  // inclusive; empty: no expiry
  std::string source;                                // "file:line" of the entry, for messages
  bool flaky = false;  // a known flake: waives `flaky` results only (run/waiver_apply.h)
};

// A malformed waivers file: the message is "FILE:LINE:COLUMN: ..." and names the key.
class WaiverFileError : public UsageError {
 public:
  WaiverFileError(std::string file, int line, int column, std::string key, const std::string& what);
  const std::string& file() const { return file_; }
  int line() const { return line_; }               // 1-based
  int column() const { return column_; }           // 1-based
  const std::string& key() const { return key_; }  // empty when not about one key

 private:
  std::string file_;
  int line_;
  int column_;
  std::string key_;
};

// `file_label` names the source in messages. Throws WaiverFileError.
std::vector<Waiver> ParseWaivers(std::string_view yaml_text, const std::string& file_label);

// Throws WaiverFileError (also when the file cannot be read: line and column are 0).
std::vector<Waiver> LoadWaiverFile(const std::filesystem::path& path);

}  // namespace conformance
