#pragma once
// The reference plugin's results for the cases a unit compares against. They are computed in a
// sibling process (forked before the candidate is loaded): the candidate's process then holds
// nothing of the reference (no registrations mixed into the Recorder, no shared globals when
// a candidate itself wraps the reference library), and a reference that crashed or hung costs
// the comparison, not the unit.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/case_runner.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

struct ReferenceCase {
  bool has_kernel = false;  // the reference registers a kernel for this op and dtype
  std::string oversized;    // why the case was not run: beyond the reference device's memory
  std::string harness_error;
  TF_Code code = TF_OK;
  std::string message;
  Outputs outputs;
};

class ReferenceResults {
 public:
  // Why the reference produced nothing at all (empty when it ran).
  std::string failure;
  const ReferenceCase* Find(std::size_t scenario, TF_DataType dtype, std::size_t shape) const;
  void Add(std::size_t scenario, TF_DataType dtype, std::size_t shape, ReferenceCase result);
  std::map<std::tuple<std::size_t, int, std::size_t>, ReferenceCase> cases;
};

// The reference plugin: $PLUGIN_CONFORMANCE_REFERENCE_PLUGIN, else the copy installed beside the
// executable (../lib/plugin_conformance/libreference_plugin.so once installed), else the build
// tree's.
std::string ReferencePluginPath();

// Runs every case of `scenarios` that compares with the reference (expect: reference) on the
// reference plugin in a child process and collects the results.
ReferenceResults RunOnReference(const std::string& reference_path,
                                const std::vector<const KernelScenario*>& scenarios,
                                std::uint64_t seed);

}  // namespace conformance::kernels
