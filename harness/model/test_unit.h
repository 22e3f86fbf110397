#pragma once
// A test unit is the smallest piece of work that runs in its own child process: it loads the
// plugin, drives it, and emits one result per check it owns. Units never talk to reporters
// directly; they emit into a ResultSink, which in the child is the pipe to the parent.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/check_result.h"
#include "model/declared_precision.h"

namespace conformance {

// What the user asked for that units need to know while they run.
struct RunSettings {
  std::string plugin_path;                     // the candidate plugin
  std::vector<std::string> co_loaded_plugins;  // loaded first, in the same process (duplicates)
  std::string profile = "newest";              // TensorFlow generation to emulate
  uint64_t seed = 0;                           // every random input derives from it
  bool verbose = false;
  // Vendor scenario directories (--scenarios DIR): every *.yaml under them adds runtime
  // scenarios next to the built-in ones (harness/scenario).
  std::vector<std::string> scenario_dirs;
  // Per-op precision a vendor declares (--precision FILE): widens the tolerance of the case
  // checks of that op and dtype.
  std::vector<DeclaredPrecision> declared_precision;
  // The kernel tier lists the plugin's registrations while the suite is built and judges every
  // registered (op, dtype) cell no built-in scenario covers from the recorded TensorFlow oracle
  // (harness/kernels/recorded_oracle.h). Off with --tensorflow (the installed TensorFlow judges
  // those cells itself), for --list, and when the kernel tier is not selected.
  bool judge_from_record = false;
  // The tiers the suite builds units for; empty for every tier. A run that names its tiers
  // (`--tier load`) leaves out the units of the others whose building parses scenario files
  // (runtime scenarios, kernels, models): that parsing was a third of a `--tier load` run's
  // CPU, and the load tier runs once per plugin in tensorflow.agreement (BENCHMARKS.md).
  std::vector<std::string> built_tiers;
  // --force-runtime: the later tiers run although TensorFlow would refuse the plugin. The load
  // tier then lets a plugin's own dlopen succeed (validate/opened_libraries.h), so that its
  // device comes up for them; the refusal is still found, by the audit after each init function.
  bool force_runtime = false;

  bool BuildsTier(std::string_view tier) const {
    return built_tiers.empty() ||
           std::find(built_tiers.begin(), built_tiers.end(), tier) != built_tiers.end();
  }
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void Emit(CheckResult result) = 0;
};

struct UnitContext {
  const RunSettings& settings;
  ResultSink& sink;
};

struct TestUnit {
  std::string name;                    // e.g. "load.se"
  std::string tier;                    // load, runtime, kernels, graph, profiler, stress
  std::vector<std::string> check_ids;  // every id the unit may emit, in emission order
  std::function<void(UnitContext&)> run;
  // Check ids that must have passed (pass or warning) for this unit to be worth running;
  // otherwise every check of the unit is reported `skipped`, naming the failed prerequisite.
  // Units with prerequisites run after the units that produce them.
  std::vector<std::string> prerequisites;
  // Run by the installed TensorFlow's leg (--tensorflow, harness/cli/installed_tensorflow_units.h)
  // in one TensorFlow session for all such units of a run, not in a child of its own: `run` is
  // empty. Selected, sharded, filtered and waived like every other unit.
  bool in_installed_tensorflow = false;
  // A unit that loads nothing and only reports what the suite decided while it was built (an op
  // the plugin registers no kernel for): run in the parent, without a child process of its own.
  // `run` must not touch the plugin; it gives the same results in a child.
  bool runs_in_parent = false;
};

}  // namespace conformance
