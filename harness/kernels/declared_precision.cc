#include "kernels/declared_precision.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "kernels/dtype_values.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/value_distance.h"
#include "ops/catalogue.h"
#include "ops/registry.h"
#include "scenario/scenario_error.h"
#include "kernels/yaml_location.h"
#include "scenario/schema_keys.h"

namespace conformance::kernels {
namespace {

using scenario::ErrorList;
using scenario::JoinKeys;
using scenario::Suggestion;

const std::vector<std::string> kKeys = {"op", "dtype", "scenario", "rtol", "atol", "ulp", "reason"};

// The floating dtypes any type attr of `op` allows: the ones a tolerance can apply to.
std::vector<std::string> FloatingDtypesOf(const ops::OpDef& op) {
  std::set<TF_DataType> dtypes;
  for (const ops::AttrDef& attr : op.attrs) {
    if (attr.type != "type") continue;
    for (TF_DataType dtype : ops::AllowedTypes(op, attr.name))
      if (IsFloating(dtype)) dtypes.insert(dtype);
  }
  std::vector<std::string> names;
  names.reserve(dtypes.size());
  for (TF_DataType dtype : dtypes) names.push_back(DtypeName(dtype));
  return names;
}

// The floating dtypes the scenarios of `op` run: what a tolerance can apply to for an op no
// registry here knows (one the plugin defines itself).
std::vector<std::string> FloatingDtypesOf(const std::string& op,
                                          const std::vector<KernelScenario>& scenarios) {
  std::set<TF_DataType> dtypes;
  for (const KernelScenario& s : scenarios) {
    if (s.op != op) continue;
    for (TF_DataType dtype : s.dtypes)
      if (IsFloating(dtype)) dtypes.insert(dtype);
  }
  std::vector<std::string> names;
  names.reserve(dtypes.size());
  for (TF_DataType dtype : dtypes) names.push_back(DtypeName(dtype));
  return names;
}

class EntryParser {
 public:
  EntryParser(ErrorList& errors, const std::vector<KernelScenario>& scenarios,
              const ops::OpRegistry* registry)
      : errors_(errors), scenarios_(scenarios), registry_(registry) {}

  std::optional<DeclaredPrecision> Parse(const YAML::Node& entry, const std::string& label) {
    ok_ = true;
    if (!entry.IsMap()) {
      Error(LocationOf(entry), "", "each declaration is a mapping with keys " + JoinKeys(kKeys));
      return std::nullopt;
    }
    DeclaredPrecision d;
    d.source = label + ":" + std::to_string(LocationOf(entry).line);
    for (const auto& pair : entry) {
      const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : "";
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        Error(LocationOf(pair.first), key,
              "unknown key in precision declaration" + Suggestion(key, kKeys) +
                  "; allowed keys: " + JoinKeys(kKeys));
      }
    }
    for (const char* key : {"op", "dtype", "reason"}) {
      if (!entry[key] || !entry[key].IsScalar() || entry[key].Scalar().empty()) {
        Error(LocationOf(entry[key] ? entry[key] : entry), key,
              std::string("missing or empty (every declaration names its op, dtype and the reason "
                          "the vendor accepts the lower precision)"));
      }
    }
    if (!ok_) return std::nullopt;
    d.op = entry["op"].Scalar();
    d.reason = entry["reason"].Scalar();
    // An op of the catalogue, any op TensorFlow registers, or an op a kernel scenario runs (a
    // vendor's scenario for an op the plugin defines itself).
    const ops::OpDef* op = ops::FindOp(d.op);
    if (op == nullptr && registry_ != nullptr) op = registry_->Find(d.op);
    const bool in_scenarios = std::any_of(scenarios_.begin(), scenarios_.end(),
                                          [&](const KernelScenario& s) { return s.op == d.op; });
    if (op == nullptr && !in_scenarios) {
      Error(LocationOf(entry["op"]), "op",
            "unknown op '" + d.op + "'" + Suggestion(d.op, KnownOps()) +
                "; declarations name ops TensorFlow registers or ops a kernel scenario runs");
      return std::nullopt;
    }
    d.dtype = entry["dtype"].Scalar();
    const std::vector<std::string> floating =
        op != nullptr ? FloatingDtypesOf(*op) : FloatingDtypesOf(d.op, scenarios_);
    if (std::find(floating.begin(), floating.end(), d.dtype) == floating.end()) {
      Error(LocationOf(entry["dtype"]), "dtype",
            d.op + " has no floating dtype '" + d.dtype + "'" + Suggestion(d.dtype, floating) +
                "; precision is declared for " +
                (floating.empty() ? std::string("none of its dtypes") : JoinKeys(floating)) +
                " (other dtypes are compared exactly)");
    }
    if (entry["scenario"]) d.scenario = ScenarioOf(d.op, entry["scenario"]);
    if (entry["rtol"]) d.rtol = Bound(entry["rtol"], "rtol");
    if (entry["atol"]) d.atol = Bound(entry["atol"], "atol");
    if (entry["ulp"]) d.ulp = static_cast<std::uint64_t>(Bound(entry["ulp"], "ulp"));
    if (ok_ && d.rtol == 0 && d.atol == 0 && d.ulp == 0) {
      Error(LocationOf(entry), "rtol", "declares no tolerance: give rtol, atol or ulp above 0");
    }
    if (!ok_) return std::nullopt;
    return d;
  }

 private:
  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }

  // The scenario name `node` gives, which must be one of `op`'s scenarios.
  std::string ScenarioOf(const std::string& op, const YAML::Node& node) {
    std::vector<std::string> names;
    for (const KernelScenario& s : scenarios_)
      if (s.op == op) names.push_back(s.name);
    std::string name = node.IsScalar() ? node.Scalar() : "";
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      Error(LocationOf(node), "scenario",
            op + " has no kernel scenario '" + name + "'" + Suggestion(name, names) +
                "; its scenarios: " + (names.empty() ? std::string("none") : JoinKeys(names)));
    }
    return name;
  }

  double Bound(const YAML::Node& node, const std::string& key) {
    double value = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || std::isnan(value) ||
        value < 0 || std::isinf(value) || (key == "ulp" && value != std::floor(value))) {
      Error(LocationOf(node), key,
            key == "ulp" ? "expected a whole number >= 0, got '" + node.Scalar() + "'"
                         : "expected a finite number >= 0, got '" + node.Scalar() + "'");
      return 0;
    }
    return value;
  }

  // Names for a did-you-mean: the catalogue's, the registry's and the scenarios' ops.
  std::vector<std::string> KnownOps() const {
    std::vector<std::string> names = ops::BuiltInOpNames();
    if (registry_ != nullptr) {
      for (const std::string_view name : registry_->OpNames()) names.emplace_back(name);
    }
    for (const KernelScenario& s : scenarios_) names.push_back(s.op);
    return names;
  }

  ErrorList& errors_;
  const std::vector<KernelScenario>& scenarios_;
  const ops::OpRegistry* registry_;
  bool ok_ = true;
};

}  // namespace

std::vector<DeclaredPrecision> ParseDeclaredPrecision(std::string_view text,
                                                      const std::string& label,
                                                      const std::vector<KernelScenario>& scenarios,
                                                      const ops::OpRegistry* registry) {
  ErrorList errors(label);
  std::vector<DeclaredPrecision> declarations;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    errors.Add({e.mark.line + 1, e.mark.column + 1}, "", "invalid YAML: " + e.msg);
    throw scenario::ScenarioFilesError(errors.errors());
  }
  if (!root.IsSequence()) {
    errors.Add(LocationOf(root), "",
               "a precision file is a YAML list of {op, dtype, rtol/atol/ulp, reason}");
    throw scenario::ScenarioFilesError(errors.errors());
  }
  EntryParser parser(errors, scenarios, registry);
  std::map<std::tuple<std::string, std::string, std::string>, std::string> seen;
  for (const YAML::Node& entry : root) {
    auto declaration = parser.Parse(entry, label);
    if (!declaration) continue;
    const auto key = std::make_tuple(declaration->op, declaration->dtype, declaration->scenario);
    if (auto [it, inserted] = seen.emplace(key, declaration->source); !inserted) {
      const std::string what = declaration->op + " " + declaration->dtype +
                               (declaration->scenario.empty() ? "" : " " + declaration->scenario);
      errors.Add(LocationOf(entry), "op", what + " is already declared at " + it->second);
      continue;
    }
    declarations.push_back(std::move(*declaration));
  }
  if (!errors.empty()) throw scenario::ScenarioFilesError(errors.errors());
  return declarations;
}

std::vector<DeclaredPrecision> LoadDeclaredPrecision(const std::string& path,
                                                     const std::vector<std::string>& scenario_dirs,
                                                     PluginOps* plugin_ops) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    throw scenario::ScenarioFilesError(
        {{path, {}, "", "--precision: cannot read the file (give a YAML precision file)"}});
  }
  // Vendor scenarios may name any op TensorFlow registers; the newest registry reads them all
  // here (the kernel tier checks them against the profile's own).
  const std::vector<std::string> releases = ops::OpRegistryReleases();
  const ops::OpRegistry* registry =
      releases.empty() ? nullptr : ops::FindOpRegistry(releases.back());
  return ParseDeclaredPrecision(
      text.str(), path, LoadAllKernelScenarios(scenario_dirs, registry, plugin_ops), registry);
}

const DeclaredPrecision* FindDeclaration(const std::vector<DeclaredPrecision>& declarations,
                                         const std::string& op, TF_DataType dtype,
                                         const std::string& scenario) {
  const std::string name = DtypeName(dtype);
  const DeclaredPrecision* op_wide = nullptr;
  for (const DeclaredPrecision& d : declarations) {
    if (d.op != op || d.dtype != name) continue;
    if (d.scenario == scenario) return &d;
    if (d.scenario.empty()) op_wide = &d;
  }
  return op_wide;
}

Tolerance Widen(const Tolerance& tolerance, const DeclaredPrecision* declaration) {
  if (declaration == nullptr) return tolerance;
  return Tolerance{.rtol = std::max(tolerance.rtol, declaration->rtol),
                   .atol = std::max(tolerance.atol, declaration->atol),
                   .ulp = std::max(tolerance.ulp, declaration->ulp)};
}

std::string DeclarationText(const DeclaredPrecision& declaration) {
  return ToleranceText(Tolerance{
             .rtol = declaration.rtol, .atol = declaration.atol, .ulp = declaration.ulp}) +
         " (" + declaration.reason + "; " + declaration.source + ")";
}

const std::vector<std::string>& DeclaredPrecisionKeys() { return kKeys; }

}  // namespace conformance::kernels
