#pragma once
// Where a yaml-cpp node starts, as the 1-based line and column scenario errors print.
#include <yaml-cpp/yaml.h>

#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

inline Location LocationOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

}  // namespace conformance::kernels
