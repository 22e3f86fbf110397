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
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/check_result.h"
#include "model/declared_precision.h"
#include "model/outcome.h"
#include "run/sharding.h"

namespace conformance {

// Ids of the checks that decide whether the plugin could be loaded at all.
inline constexpr std::string_view kLibraryCheckPrefix = "load.library.";

// A `load.library.` result that broke conformance, or one that says the harness cannot host
// the plugin at all (not_supported: it needs TensorFlow's C++ libraries). Either way nothing
// else about the plugin was tested.
inline bool KeepsPluginFromLoading(const CheckResult& result) {
  return result.id.starts_with(kLibraryCheckPrefix) &&
         (BreaksConformance(result.outcome) || result.outcome == Outcome::kNotSupported);
}

// Every outcome, in the order summaries list them.
inline constexpr std::array<Outcome, 10> kAllOutcomes = {
    Outcome::kPass,    Outcome::kFail,    Outcome::kWarning, Outcome::kNotSupported,
    Outcome::kCrash,   Outcome::kTimeout, Outcome::kWaived,  Outcome::kUnexpectedPass,
    Outcome::kSkipped, Outcome::kFlaky,
};

struct HostInfo {      // uname(2)
  std::string system;  // e.g. Linux
  std::string node;
  std::string release;
  std::string version;
  std::string machine;  // e.g. x86_64
};
HostInfo CurrentHost();

// One (op, dtype) cell the plugin registers a kernel for on its own device (unlabelled), as the
// kernel tier's listing found it, and whether a kernel scenario of this run's suite covers it.
// dtype is spelled as in check ids ("float"); "*" for a kernel without a type constraint, which
// serves every dtype.
struct RegisteredCell {
  std::string op;
  std::string dtype;
  bool scenario = false;
};
inline constexpr const char* kEveryDtype = "*";

struct RunReport {
  std::string tool_version;
  std::string plugin_path;
  std::vector<std::string> co_loaded_plugins;
  std::string profile;
  std::uint64_t seed = 0;
  std::vector<std::string> tiers;        // selected tiers that have selected checks
  std::vector<std::string> named_tiers;  // the ones named one by one with --tier
  std::string filter = "*";
  std::optional<ShardSpec> shard;
  int jobs = 1;
  std::int64_t timeout_ms = 0;  // per unit
  bool isolation = true;
  int repeat = 1;  // --repeat: runs of every unit
  // --precision: the vendor's per-op precision declarations, shown with the results.
  std::vector<DeclaredPrecision> declared_precision;
  std::string started_at;  // ISO 8601 UTC, e.g. 2026-11-21T10:42:01Z
  double wall_seconds = 0.0;
  HostInfo host;
  std::vector<CheckResult> results;  // suite order
  // model/no_device.h's reason when the plugin loaded and reported 0 devices (the device tiers
  // had nothing to drive); empty otherwise. Set by the run layer from the load tier's results,
  // also when the check that found it is not among `results` (a shard, a --filter).
  std::string no_device;
  // Why the plugin could not be loaded ("load.library.dlopen: ..."), also when the check that
  // found it ran only as a prerequisite and is not among `results`; empty when it loaded.
  std::string load_failure;
  std::vector<std::string> warnings;  // also printed on stderr as they arise
  // Filled later by the generation/compatibility analysis; absent until then.
  std::optional<nlohmann::json> tensorflow_verdict;  // free-form object
  // --tensorflow: what the installed TensorFlow did with the plugin and whether the emulated
  // verdict agrees (harness/installed_tensorflow/installed_verdict.h); absent without it.
  std::optional<nlohmann::json> installed_tensorflow;
  std::optional<std::string> header_generation;
  // With the kernels tier: every cell the plugin registers, so the report can say which no check
  // judged (report/op_coverage.h); absent when the tier did not run or they could not be listed.
  std::optional<std::vector<RegisteredCell>> registered_kernels;

  // Count of every outcome in kAllOutcomes (zeros included).
  std::map<Outcome, int> Counts() const;
  // A plugin the mock core cannot host (it imports TensorFlow's C++ symbols: the emulated
  // verdict is "unknown here") run with --tensorflow: the installed TensorFlow decides it.
  bool JudgedInInstalledTensorFlowOnly() const;
  // Whether the plugin loaded: no load_failure and no load.library.* result breaking
  // conformance; for a plugin judged in the installed TensorFlow only, whether that loads it.
  bool PluginLoaded() const;
  // Tiers in `tiers` that have results but none that passed (every check skipped because
  // its unit died, say). A tier of a sharded run without results on this shard is not one,
  // nor a tier the user did not name whose every check is not_supported: the plugin does not
  // provide that module (no kernels, no profiler), which TensorFlow accepts too. Named with
  // --tier, such a tier still verified nothing and counts.
  std::vector<std::string> TiersWithoutPass() const;
  // The selected tiers that drive a device (model/no_device.h), when the plugin reported none:
  // they did not run. Empty when it has a device or none of them was selected.
  std::vector<std::string> DeviceTiersNotRun() const;
  // Not conformant only because device tiers were selected for a plugin without a device: no
  // defect was found, and every device-free tier verified something (exit 5, run/exit_code.h).
  bool WantsOnlyADevice() const;
  // Conformant, for a plugin without a device: only device-free tiers were selected. Reports
  // never call this plain CONFORMANT.
  bool ConformantWithoutDevice() const { return Conformant() && !no_device.empty(); }
  // DESIGN.md: conformant when the plugin loaded, every selected tier ran at least one check
  // that passed, and nothing is fail, crash, timeout, unexpected_pass or flaky. An empty run
  // is not. Judged in the installed TensorFlow only: when that TensorFlow loads it, nothing
  // (its kernel cases there included) fails and, with the kernels tier selected, at least one
  // case ran a kernel of the plugin; the emulated tiers could run nothing.
  bool Conformant() const;
  // The reason Conformant() is false, in words; empty when it is true.
  std::string NotConformantReason() const;
  // Judged in the installed TensorFlow only, with the kernels tier selected: the reason when no
  // case there ran one of the plugin's own kernels; empty when one did.
  std::string InstalledKernelsVerifiedNothing() const;
};

// ISO 8601 in UTC with second precision.
std::string IsoUtc(std::chrono::system_clock::time_point time);

}  // namespace conformance
