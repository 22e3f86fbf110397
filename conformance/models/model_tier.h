#pragma once
// The models tier: one test unit per model scenario (built-in conformance/models/*.yaml plus
// vendor files under --scenarios). Each unit runs the model node by node on the candidate's
// device, buffers chained there, compares every step's outputs with the reference plugin's,
// and checks the run's properties (deterministic, no leaks, the same as the sequential oracle).
// A failure is traced to one kernel: the first node whose outputs differ, or the node whose
// write corrupted a tensor a later node needed, or the node that read its input ahead of the
// stream.
#include <string>
#include <vector>

#include "catalogue/catalogue.h"
#include "model/test_unit.h"
#include "models/model_scenario.h"

namespace conformance {

std::vector<TestUnit> ModelTierUnits(const RunSettings& settings);

struct ModelPropertyDoc {
  std::string name;  // the last id component, e.g. "no_leaks"
  std::string rule, tensorflow, fix;
  std::string consequence;  // "<kind>: <text>", see specs/checks/README.md
};
const std::vector<ModelPropertyDoc>& ModelPropertyDocs();

// The catalogue entries of one model's checks with `dtype` standing for the dtype component
// ("{each}" for the generated catalogue, a dtype name for a vendor model's run-time entries).
std::vector<CheckEntry> ModelCheckEntries(const models::ModelScenario& model,
                                          const std::string& dtype);

}  // namespace conformance
