#pragma once
// Runs test units out of process. Each unit gets its own forked child with a deadline; the
// child streams CheckResult records (JSON lines) back over a pipe. Whatever the plugin does
// (SIGSEGV, SIGABRT, exit(), an endless loop) the parent ends up with a complete list of
// results for the unit and carries on with the next one.
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "isolate/default_timeout.h"
#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance {

struct IsolationOptions {
  std::chrono::milliseconds timeout{kDefaultUnitTimeoutMs};  // per unit
  bool isolate = true;  // false: run in-process (for debuggers)
};

// Results of one unit: everything the unit emitted, then
//  - for a crash: a `crash` result for the check in flight (signal, backtrace, last call);
//  - for a hang: a `timeout` result for the check in flight (the child is killed);
//  - `skipped` for every declared check the unit never reached.
using UnitDone = std::function<void(std::size_t unit_index, std::vector<CheckResult> results)>;

// Runs all units, at most `jobs` children at a time, calling `on_done` on the calling thread
// as each unit finishes (in completion order). Single-threaded: children are multiplexed
// with poll(), so fork() never happens while other harness threads hold locks.
void RunUnits(const std::vector<TestUnit>& units, const RunSettings& settings,
              const IsolationOptions& options, int jobs, const UnitDone& on_done);

}  // namespace conformance
