#pragma once
// What the user asked for, resolved from options and environment: the input of a run.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "isolate/unit_runner.h"
#include "model/test_unit.h"
#include "run/selection.h"
#include "run/tensorflow_verdict.h"
#include "run/waivers.h"

namespace conformance {

struct RunPlan {
  std::string tool_version;
  RunSettings settings;        // plugin, co-loaded plugins, profile, seed, verbose
  SelectionOptions selection;  // tiers, filter, shard
  IsolationOptions isolation;  // per-unit timeout, isolation on/off
  int jobs = 1;                // children at a time
  // Every unit runs this many times (--repeat); a check whose outcome varies is `flaky`.
  int repeat = 1;
  std::vector<Waiver> waivers;
  // Runtime, stress and kernel units run even when TensorFlow would refuse the plugin
  // (--force-runtime, for vendors mid-port); by default they are skipped with the refusal.
  bool force_runtime = false;
  // Catalogue origins, for TensorFlow's verdict; may be empty.
  OriginLookup origin_of;
  // Whether a failure of this check names a consequence a TensorFlow user would hit (the
  // catalogue's `consequence` kind is not `none`); may be empty (then every check may fail).
  std::function<bool(std::string_view check_id)> may_fail;
  // The date waiver expiry is judged against; empty: today (UTC). Set by tests.
  std::optional<std::chrono::year_month_day> today;
};

}  // namespace conformance
