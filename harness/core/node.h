#pragma once
// What a kernel is built from: TensorFlow's NodeDef as plain C++ (name, op, requested
// inputs, assigned device, attributes).
#include <string>
#include <vector>

#include "core/attributes.h"

namespace conformance::core {

struct NodeDef {
  std::string name = "node";
  std::string op = {};
  std::vector<std::string> inputs = {};  // "x", "y:1", "^ctrl"
  std::string device = {};
  AttrMap attrs = {};
};

}  // namespace conformance::core
