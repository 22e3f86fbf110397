#pragma once
// Everything one run produced, in the form every reporter reads: what was asked for
// (plugin, profile, seed, selection), where and when it ran, and the results in suite
// order. Derived facts (counts, the verdict) are computed from the results, never stored,
// so they cannot disagree with them.
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/check_result.h"
#include "model/outcome.h"
#include "run/sharding.h"

namespace conformance {

// Every outcome, in the order summaries list them.
inline constexpr std::array<Outcome, 9> kAllOutcomes = {
    Outcome::kPass,    Outcome::kFail,   Outcome::kWarning,
    Outcome::kNotSupported, Outcome::kCrash, Outcome::kTimeout,
    Outcome::kWaived,  Outcome::kUnexpectedPass, Outcome::kSkipped,
};

struct HostInfo {  // uname(2)
  std::string system;   // e.g. Linux
  std::string node;
  std::string release;
  std::string version;
  std::string machine;  // e.g. x86_64
};
HostInfo CurrentHost();

struct RunReport {
  std::string tool_version;
  std::string plugin_path;
  std::vector<std::string> co_loaded_plugins;
  std::string profile;
  std::uint64_t seed = 0;
  std::vector<std::string> tiers;
  std::string filter = "*";
  std::optional<ShardSpec> shard;
  int jobs = 1;
  std::int64_t timeout_ms = 0;  // per unit
  bool isolation = true;
  std::string started_at;       // ISO 8601 UTC, e.g. 2026-11-21T10:42:01Z
  double wall_seconds = 0.0;
  HostInfo host;
  std::vector<CheckResult> results;  // suite order
  std::vector<std::string> warnings;  // also printed on stderr as they arise
  // Filled later by the generation/compatibility analysis; absent until then.
  std::optional<nlohmann::json> tensorflow_verdict;  // free-form object
  std::optional<std::string> header_generation;

  // Count of every outcome in kAllOutcomes (zeros included).
  std::map<Outcome, int> Counts() const;
  // DESIGN.md: conformant when nothing is fail, crash, timeout or unexpected_pass.
  bool Conformant() const;
};

// ISO 8601 in UTC with second precision.
std::string IsoUtc(std::chrono::system_clock::time_point time);

}  // namespace conformance
