#pragma once
// Half and bfloat16 cases of ops that sum many products or terms (a family file's
// `judged_in_float64:`) carry their own run in float64: the same inputs widened to double and
// the case's type attrs set to double. How TensorFlow's CPU sums in half is a release's choice,
// not the op's meaning (up to 2.15 its half MatMul summed in half, later releases in float), so a
// device that sums in float is also right where it agrees with that run rounded back. The
// recorder (specs/ops/record/record.py) records the run beside the CPU's result, and
// plugin_conformance --tensorflow runs it on the installed TensorFlow's CPU: both read it from
// the case, so the recorded and the live route judge such a case alike.
#include <optional>
#include <set>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace conformance::kernels {

// `judged_in_float64:` of one parsed family file: a list of op names; the first error as
// "file:line:col: message". A file without the key gives an empty set.
std::variant<std::set<std::string>, std::string> JudgedInFloat64OfDocument(const YAML::Node& root,
                                                                           const std::string& file);

// Every compiled-in file's (specs/ops/families/*.yaml).
const std::set<std::string>& BuiltinJudgedInFloat64();

// The case's float64 run, {"attrs", "inputs"} to run in place of the case's own; nullopt for a
// case not judged so: another op, another dtype, or a companion (which is judged through the
// case it accompanies).
std::optional<nlohmann::json> Float64Run(const nlohmann::json& kernel_case);

// The key a generated case carries its Float64Run under.
inline constexpr const char* kFloat64RunKey = "float64_run";

}  // namespace conformance::kernels
