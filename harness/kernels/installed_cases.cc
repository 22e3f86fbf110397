#include "kernels/installed_cases.h"

#include "kernels/case_json.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/registered_kernels.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

// Listing registrations brings the plugin up once, as the kernel tier's units do.
constexpr unsigned kListingSeconds = 60;

// Generated cases follow the newest op definitions the suite embeds: the cases go to the
// driver before it says which release is installed, and an op an older release lacks is one
// its CPU rejects (a skipped case, never a failure).
const ops::OpRegistry* NewestRegistry() {
  const std::vector<std::string> releases = ops::OpRegistryReleases();
  return releases.empty() ? nullptr : ops::FindOpRegistry(releases.back());
}

}  // namespace

nlohmann::json InstalledTensorFlowCases(const std::string& plugin,
                                        const std::vector<std::string>& scenario_dirs,
                                        const std::vector<DeclaredPrecision>& precision,
                                        std::uint64_t seed) {
  const ops::OpRegistry* registry = NewestRegistry();
  const std::vector<KernelScenario> scenarios = LoadAllKernelScenarios(scenario_dirs, registry);
  nlohmann::json result = CasesJson(scenarios, seed);
  result["not_generated"] = nlohmann::json::array();
  if (registry == nullptr) return result;
  auto listed = ListRegisteredKernels(plugin, kListingSeconds);
  if (const auto* why = std::get_if<std::string>(&listed)) {
    result["registrations_error"] = *why;
    return result;
  }
  const auto& kernels = std::get<std::vector<RegisteredKernel>>(listed);
  result["registrations"] = kernels.size();
  nlohmann::json generated = GenerateCases(kernels, scenarios, *registry, precision, seed);
  for (nlohmann::json& kernel_case : generated["cases"]) {
    result["cases"].push_back(std::move(kernel_case));
  }
  result["not_generated"] = std::move(generated["not_generated"]);
  return result;
}

}  // namespace conformance::kernels
