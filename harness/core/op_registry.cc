// Linked into libtensorflow_framework.so.2 only (see op_registry.h).
#include "core/op_registry.h"

#include <mutex>

namespace conformance::core {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<OpDefinition> ops;
};

Registry& Instance() {
  static Registry* const registry = new Registry();  // never destroyed, see recorder.cc
  return *registry;
}

}  // namespace

void AddOpDefinition(OpDefinition op) {
  std::lock_guard lock(Instance().mu);
  Instance().ops.push_back(std::move(op));
}

std::optional<OpDefinition> FindOpDefinition(std::string_view name) {
  std::lock_guard lock(Instance().mu);
  const auto& ops = Instance().ops;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    if (it->registration.name == name) return *it;
  }
  return std::nullopt;
}

std::vector<OpDefinition> AllOpDefinitions() {
  std::lock_guard lock(Instance().mu);
  return Instance().ops;
}

void ClearOpDefinitions() {
  std::lock_guard lock(Instance().mu);
  Instance().ops.clear();
}

}  // namespace conformance::core
