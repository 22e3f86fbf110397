#include "kernels/no_cpu_oracle.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace conformance::kernel_family_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::kernel_family_data

namespace conformance::kernels {
namespace {

std::string At(const std::string& file, const YAML::Mark& mark) {
  return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) + ": ";
}

}  // namespace

std::variant<std::map<std::string, std::string>, std::string> ParseNoCpuOracle(
    std::string_view text, const std::string& file) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
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
      } else {
        return At(file, kind.first.Mark()) + "unknown kind '" + name +
               "' in `no_cpu_oracle:` (known: no_kernel, random_draws, shared_state, dies)";
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

const std::map<std::string, std::string>& BuiltinNoCpuOracle() {
  static const std::map<std::string, std::string> reasons = [] {
    std::map<std::string, std::string> all;
    for (const auto& [path, text] : kernel_family_data::EmbeddedFiles()) {
      auto parsed = ParseNoCpuOracle(text, std::string(path));
      if (const auto* error = std::get_if<std::string>(&parsed)) {
        std::fprintf(stderr, "built-in no-CPU-oracle ops: %s\n", error->c_str());
        std::abort();
      }
      all.merge(std::get<std::map<std::string, std::string>>(parsed));
    }
    return all;
  }();
  return reasons;
}

}  // namespace conformance::kernels
