#include "kernels/no_cpu_oracle.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "kernels/family_documents.h"

namespace conformance::kernels {
namespace {

std::string At(const std::string& file, const YAML::Mark& mark) {
  return FamilyFileError(file, mark, "");
}

}  // namespace

std::variant<std::map<std::string, std::string>, std::string> NoCpuOracleOfDocument(
    const YAML::Node& root, const std::string& file) {
  try {
    std::map<std::string, std::string> reasons;
    const YAML::Node kinds = root["no_cpu_oracle"];
    if (!kinds) return reasons;
    if (!kinds.IsMap()) return At(file, kinds.Mark()) + "`no_cpu_oracle:` must be a mapping";
    for (const auto& kind : kinds) {
      const std::string name = kind.first.as<std::string>();
      // Each kind's reason says what makes the op unjudgeable; the op's own text says how.
      std::string prefix;
      if (name == "no_kernel") {
        prefix = std::string(kNoCpuKernelReason) + " (no oracle): ";
      } else if (name == "random_draws") {
        prefix = std::string(kRandomDrawsReason) +
                 ", so no recorded value judges it, and random_draws.h does not judge its "
                 "distribution: ";
      } else if (name == "shared_state") {
        prefix = std::string(kSharedStateReason) + ", so no recorded value judges it: ";
      } else if (name == "dies") {
        prefix = std::string(kCpuDiesReason) + " (no oracle): ";
      } else if (name == "unreproducible") {
        prefix = std::string(kUnreproducibleReason) + ", so no recorded value judges it: ";
      } else {
        return At(file, kind.first.Mark()) + "unknown kind '" + name +
               "' in `no_cpu_oracle:` (known: no_kernel, random_draws, shared_state, dies, "
               "unreproducible)";
      }
      if (!kind.second.IsMap())
        return At(file, kind.second.Mark()) + "`" + name + ":` maps op names to why";
      for (const auto& op : kind.second)
        reasons[op.first.as<std::string>()] = prefix + op.second.as<std::string>();
    }
    return reasons;
  } catch (const YAML::Exception& error) {
    return At(file, error.mark) + error.msg;
  }
}

std::variant<std::map<std::string, std::string>, std::string> ParseNoCpuOracle(
    std::string_view text, const std::string& file) {
  YAML::Node root;
  if (std::string error = LoadFamilyFile(text, file, root); !error.empty()) return error;
  return NoCpuOracleOfDocument(root, file);
}

const std::map<std::string, std::string>& BuiltinNoCpuOracle() {
  return BuiltinFamilyTables().no_cpu_oracle;
}

}  // namespace conformance::kernels
