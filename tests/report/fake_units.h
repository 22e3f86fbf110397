#pragma once
// Fake test units and an in-process unit runner for exercising selection and
// orchestration without child processes, the real suite or the isolator.
#include <string>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"
#include "run/run_conformance.h"

namespace conformance::testing {

// A unit whose run emits `outcome` for each of `ids`.
TestUnit FakeUnit(std::string name, std::string tier, const std::vector<std::string>& ids,
                  Outcome outcome = Outcome::kPass);

// Runs every unit in-process, reporting them in REVERSE order, so tests see that reports
// follow suite order rather than completion order. Records what it was asked to run.
struct ReverseOrderRunner {
  std::vector<std::string> ran;  // unit names, in the order given
  RunSettings settings_seen;
  int jobs_seen = 0;
  UnitsRunner AsRunner();
};

}  // namespace conformance::testing
