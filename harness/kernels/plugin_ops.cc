#include "kernels/plugin_ops.h"

#include <algorithm>

#include "ops/op_builder.h"

namespace conformance::kernels {

void PluginOps::ListOnce() {
  if (listed_) return;
  listed_ = true;
  PluginOpsListing listing = lister_ ? lister_() : PluginOpsListing{{}, "no plugin to list"};
  error_ = std::move(listing.error);
  for (const core::OpRegistration& registration : listing.ops) {
    // The same grammar and validation as the catalogue's ops: a definition TensorFlow would
    // reject never becomes one a scenario may use.
    ops::OpBuild build = ops::BuildFromRegistration(registration);
    if (!build.ok()) {
      std::string message;
      for (const ops::SpecError& error : build.errors)
        message += (message.empty() ? "" : "; ") + ops::ToString(error);
      broken_[registration.name] = std::move(message);
      defined_.erase(registration.name);
      continue;
    }
    // TensorFlow keeps the last registration of a name; so does the mock core.
    broken_.erase(registration.name);
    defined_[registration.name] = std::make_shared<const ops::OpDef>(std::move(build.op));
  }
}

std::shared_ptr<const ops::OpDef> PluginOps::Find(std::string_view name) {
  ListOnce();
  const auto found = defined_.find(name);
  return found == defined_.end() ? nullptr : found->second;
}

std::vector<std::string> PluginOps::Names() {
  ListOnce();
  std::vector<std::string> names;
  for (const auto& [name, op] : defined_) names.push_back(name);
  for (const auto& [name, why] : broken_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

const std::string& PluginOps::ListingError() {
  ListOnce();
  return error_;
}

std::optional<std::string> PluginOps::Broken(std::string_view name) {
  ListOnce();
  const auto found = broken_.find(name);
  if (found == broken_.end()) return std::nullopt;
  return found->second;
}

}  // namespace conformance::kernels
