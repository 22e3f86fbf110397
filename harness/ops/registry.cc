#include "ops/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace conformance::ops_registry_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::ops_registry_data

namespace conformance::ops {
namespace {

constexpr std::string_view kPrefix = "specs/ops/registry/tensorflow-";
constexpr std::string_view kSuffix = ".ops";

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

std::vector<std::unique_ptr<OpRegistry>> LoadRegistries() {
  std::vector<std::unique_ptr<OpRegistry>> registries;
  for (const auto& [path, text] : ops_registry_data::EmbeddedFiles()) {
    if (!path.starts_with(kPrefix) || !path.ends_with(kSuffix)) continue;
    std::string release(path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size()));
    registries.push_back(std::make_unique<OpRegistry>(std::move(release), text));
  }
  return registries;
}

const std::vector<std::unique_ptr<OpRegistry>>& Registries() {
  static const std::vector<std::unique_ptr<OpRegistry>> registries = LoadRegistries();
  return registries;
}

// Sets the OpDef flag `name` names; false when it names none.
bool SetFlag(std::string_view name, OpDef& op) {
  const std::pair<std::string_view, bool OpDef::*> flags[] = {
      {"is_commutative", &OpDef::is_commutative},
      {"is_aggregate", &OpDef::is_aggregate},
      {"is_stateful", &OpDef::is_stateful},
      {"allows_uninitialized_input", &OpDef::allows_uninitialized_input},
      {"is_distributed_communication", &OpDef::is_distributed_communication}};
  for (const auto& [flag, member] : flags) {
    if (flag != name) continue;
    op.*member = true;
    return true;
  }
  return false;
}

}  // namespace

OpBuild ParseRegistryLine(std::string_view line) {
  const std::vector<std::string_view> fields = SplitTabs(line);
  std::vector<std::string> inputs, outputs, attrs, flags;
  std::vector<std::string>* into = &inputs;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    if (fields[i] == "->" && into == &inputs) {
      into = &outputs;
    } else if (fields[i] == "|" && into == &outputs) {
      into = &attrs;
    } else if (fields[i] == "!" && into == &attrs) {
      into = &flags;
    } else {
      into->emplace_back(fields[i]);
    }
  }
  OpBuild build = BuildOpDef(std::string(fields.front()), attrs, inputs, outputs);
  if (into != &attrs && into != &flags) {
    build.errors.push_back(
        {std::string(line), 1, "expected '->' and '|' separating the sections", ""});
  }
  for (const auto& flag : flags) {
    if (!SetFlag(flag, build.op)) {
      build.errors.push_back({std::string(line), 1, "unknown op flag '" + flag + "'", ""});
    }
  }
  return build;
}

OpRegistry::OpRegistry(std::string release, std::string_view text) : release_(std::move(release)) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty() || line.front() == '#') continue;
    lines_.emplace_back(line.substr(0, line.find('\t')), line);
  }
  // The generator writes the lines sorted; sorting again costs nothing when they are.
  if (!std::is_sorted(lines_.begin(), lines_.end())) std::sort(lines_.begin(), lines_.end());
}

std::vector<std::string_view> OpRegistry::OpNames() const {
  std::vector<std::string_view> names;
  names.reserve(lines_.size());
  for (const auto& entry : lines_) names.push_back(entry.first);
  return names;
}

const std::string_view* OpRegistry::Line(std::string_view name) const {
  auto it =
      std::lower_bound(lines_.begin(), lines_.end(), name,
                       [](const auto& entry, std::string_view key) { return entry.first < key; });
  return it != lines_.end() && it->first == name ? &it->second : nullptr;
}

const OpDef* OpRegistry::Find(std::string_view name) const {
  const std::string_view* line = Line(name);
  if (line == nullptr) return nullptr;
  const std::lock_guard lock(mutex_);
  auto it = parsed_.find(name);
  if (it != parsed_.end()) return it->second.get();
  OpBuild build = ParseRegistryLine(*line);
  if (!build.ok()) {
    std::fprintf(stderr,
                 "internal error: the TensorFlow %s op registry does not parse at op %.*s: %s\n",
                 release_.c_str(), static_cast<int>(name.size()), name.data(),
                 ToString(build.errors.front()).c_str());
    std::abort();
  }
  return parsed_.emplace(std::string(name), std::make_unique<OpDef>(std::move(build.op)))
      .first->second.get();
}

const OpRegistry* FindOpRegistry(std::string_view release) {
  for (const auto& registry : Registries()) {
    if (registry->release() == release) return registry.get();
  }
  return nullptr;
}

std::vector<std::string> OpRegistryReleases() {
  std::vector<std::string> releases;
  for (const auto& registry : Registries()) releases.push_back(registry->release());
  std::sort(releases.begin(), releases.end());
  return releases;
}

}  // namespace conformance::ops
