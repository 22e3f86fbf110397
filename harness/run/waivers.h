#pragma once
// The waivers file: expected failures, each with a reason, so a vendor can gate CI on
// "nothing new broke" while known issues are being fixed. YAML, a list of entries:
//
//   - id: runtime.memcpy.dtoh.*        # a check id, or a glob over check ids
//     reason: "DMA engine bug, vendor ticket 1234"
//     profile: tf2.10                   # optional: glob over --profile; default all
//     until: 2026-12-31                 # optional: last day (UTC) the waiver applies
//     flaky: true                       # optional: waives the check only when it is flaky
//                                       # (--repeat saw different outcomes), never a failure
//   - callback: create_stream           # or a whole root cause: its callback and problem
//     problem: out-parameter never written
//     reason: "stream pool rewrite, ticket 99"
//   - callback: compute_func            # a kernel callback's root cause names its op
//     problem: wrong values
//     kernel: Relu                      # optional: without it, the root cause of every kernel
//     reason: "NaN handling, ticket 7"
//
// Unknown keys, and a profile glob no known profile matches, are errors (a typo would otherwise
// silently widen or drop a waiver). Every error of the file is reported, not just the first.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "run/usage_error.h"

namespace conformance {

struct Waiver {
  std::string id;  // a check id or a glob over check ids; empty for a root-cause waiver
  std::string reason;
  std::string profile;  // glob over the profile name; empty: every profile
  std::optional<std::chrono::year_month_day> until;  // inclusive; empty: no expiry
  std::string source;                                // "file:line" of the entry, for messages
  bool flaky = false;  // a known flake: waives `flaky` results only (run/waiver_apply.h)
  // A root-cause waiver: the failing callback and problem its failures share (root_causes.h).
  std::string callback = {};
  std::string problem = {};
  // Only the root cause of this op's kernel (root_causes.h); empty: of any kernel, or of none.
  std::string kernel = {};

  bool is_root_cause() const { return !callback.empty(); }
  // A glob or a root cause waives the failures it matches and may match none today; an exact
  // id names one check that is expected to fail.
  bool is_exact_id() const {
    return !is_root_cause() && id.find_first_of("*?") == std::string::npos;
  }
};

// A malformed waivers file: the message is "FILE:LINE:COLUMN: ..." and names the key; with
// several errors, one such line each (file order), the accessors describing the first.
class WaiverFileError : public UsageError {
 public:
  WaiverFileError(std::string file, int line, int column, std::string key, const std::string& what);
  // Several errors of one file as one: every message, a line each; the first's position.
  explicit WaiverFileError(const std::vector<WaiverFileError>& errors);
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

// `file_label` names the source in messages; `known_profiles`, when not empty, are the profile
// names a `profile:` glob must match at least one of. Throws WaiverFileError.
std::vector<Waiver> ParseWaivers(std::string_view yaml_text, const std::string& file_label,
                                 const std::vector<std::string>& known_profiles = {});

// Throws WaiverFileError (also when the file cannot be read: line and column are 0).
std::vector<Waiver> LoadWaiverFile(const std::filesystem::path& path,
                                   const std::vector<std::string>& known_profiles = {});

}  // namespace conformance
