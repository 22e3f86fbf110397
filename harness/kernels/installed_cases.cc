#include "kernels/installed_cases.h"

#include <algorithm>

#include "kernels/case_json.h"
#include "kernels/declared_precision.h"
#include "kernels/dtype_values.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/plugin_op_listing.h"
#include "kernels/plugin_ops.h"
#include "kernels/registered_kernels.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

// Listing registrations brings the plugin up once, as the kernel tier's units do.
constexpr unsigned kListingSeconds = 60;

// Generated cases follow the installed release's op definitions (an attr 2.21 added to MatMul
// is no attr of 2.15.1's); a release the suite embeds no registry for gets the newest one.
const ops::OpRegistry* RegistryFor(const std::string& release) {
  if (const ops::OpRegistry* installed = ops::FindOpRegistry(release)) return installed;
  const std::vector<std::string> releases = ops::OpRegistryReleases();
  return releases.empty() ? nullptr : ops::FindOpRegistry(releases.back());
}

// Whether the plugin registers a kernel TensorFlow could pick for a scenario case: its op, and
// no constraint on the case's type attr other than the case's dtype.
bool Registered(const nlohmann::json& kernel_case, const std::vector<RegisteredKernel>& kernels) {
  const std::string op = kernel_case.value("op", "");
  const std::string type_attr = kernel_case.value("type_attr", "");
  const auto dtype = DtypeFromName(kernel_case.value("dtype", ""));
  for (const RegisteredKernel& kernel : kernels) {
    if (kernel.op != op) continue;
    bool fits = true;
    for (const auto& [attr, type] : kernel.type_constraints) {
      if (attr == type_attr && (!dtype || static_cast<int>(*dtype) != type)) fits = false;
    }
    if (fits) return true;
  }
  return false;
}

// --precision applies to a scenario's cases inside TensorFlow as in the kernel tier: its tolerance
// widened by the declaration for that op, dtype and scenario (else the op's), which the case
// carries so a failure can say it was held to it.
void ApplyDeclaredPrecision(nlohmann::json& kernel_case,
                            const std::vector<DeclaredPrecision>& precision) {
  const auto dtype = DtypeFromName(kernel_case.value("dtype", ""));
  if (!dtype) return;
  const DeclaredPrecision* declaration = FindDeclaration(precision, kernel_case.value("op", ""),
                                                         *dtype, kernel_case.value("scenario", ""));
  if (declaration == nullptr) return;
  const nlohmann::json& own = kernel_case["tolerance"];
  const Tolerance widened = Widen(
      Tolerance{own.value("rtol", 0.0), own.value("atol", 0.0), own.value("ulp", std::uint64_t{0})},
      declaration);
  kernel_case["tolerance"] = {{"rtol", widened.rtol}, {"atol", widened.atol}, {"ulp", widened.ulp}};
  kernel_case["declared_precision"] = DeclarationText(*declaration);
}

bool HasVariableInput(const nlohmann::json& kernel_case) {
  for (const nlohmann::json& input : kernel_case.value("inputs", nlohmann::json::array())) {
    if (input.value("variable", false) || input.value("ref", false)) return true;
  }
  return false;
}

}  // namespace

nlohmann::json InstalledTensorFlowCases(const std::string& plugin,
                                        const std::vector<std::string>& scenario_dirs,
                                        const std::vector<DeclaredPrecision>& precision,
                                        std::uint64_t seed, const std::string& release) {
  const ops::OpRegistry* registry = RegistryFor(release);
  // A vendor's scenario may run an op the plugin defines itself, as in the kernel tier; listed
  // only when a scenario names an op neither the catalogue nor the registry holds.
  PluginOps plugin_ops([&plugin] { return ListPluginOps(plugin, kPluginOpsListingSeconds); });
  std::vector<KernelScenario> scenarios =
      LoadAllKernelScenarios(scenario_dirs, registry, plugin.empty() ? nullptr : &plugin_ops);
  // Their cases stay out of TensorFlow: its CPU has no kernel of such an op to compare with
  // (the kernel tier runs them).
  const auto own = std::remove_if(scenarios.begin(), scenarios.end(),
                                  [](const KernelScenario& s) { return s.plugin_definition; });
  const auto plugin_op_scenarios = static_cast<std::size_t>(scenarios.end() - own);
  scenarios.erase(own, scenarios.end());
  nlohmann::json result = CasesJson(scenarios, seed);
  for (nlohmann::json& kernel_case : result["cases"])
    ApplyDeclaredPrecision(kernel_case, precision);
  result["plugin_op_scenarios"] = plugin_op_scenarios;
  result["not_generated"] = nlohmann::json::array();
  if (registry == nullptr) return result;
  result["op_registry"] = registry->release();
  auto listed = ListRegisteredKernels(plugin, kListingSeconds);
  if (const auto* why = std::get_if<std::string>(&listed)) {
    result["registrations_error"] = *why;
    return result;
  }
  const auto& kernels = std::get<std::vector<RegisteredKernel>>(listed);
  result["registrations"] = kernels.size();
  // Cases of cells the plugin does not register would only find no kernel in TensorFlow
  // (not_on_device): they are not sent, which keeps a small plugin's run short.
  // Cases with a variable input are not sent either: the driver makes every input a constant
  // tensor and has no resource variables to hand a kernel (the kernel tier and
  // tests/tensorflow_oracle run those cases).
  nlohmann::json registered = nlohmann::json::array();
  std::size_t variable_cases = 0;
  for (nlohmann::json& kernel_case : result["cases"]) {
    if (HasVariableInput(kernel_case)) {
      ++variable_cases;
    } else if (Registered(kernel_case, kernels)) {
      registered.push_back(std::move(kernel_case));
    }
  }
  result["variable_cases"] = variable_cases;
  result["not_registered_cases"] = result["cases"].size() - registered.size() - variable_cases;
  result["cases"] = std::move(registered);
  // Only the built-in scenarios stand in for generated cases: a vendor's scenario for an op adds
  // its cases to the generated ones, never replaces them (a literal Floor case without a NaN
  // left Floor(NaN) = 0 unjudged).
  nlohmann::json generated =
      GenerateCases(kernels, BuiltinKernelScenarios(), *registry, precision, seed);
  for (nlohmann::json& kernel_case : generated["cases"]) {
    result["cases"].push_back(std::move(kernel_case));
  }
  result["not_generated"] = std::move(generated["not_generated"]);
  return result;
}

}  // namespace conformance::kernels
