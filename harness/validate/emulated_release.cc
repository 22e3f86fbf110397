#include "validate/emulated_release.h"

#include <cstdio>

#include "core/emulated_release.h"
#include "ops/op_list_proto.h"
#include "ops/registry.h"

namespace conformance::validate {
namespace {

// "2.21.0" -> 21; -1 when not "2.<minor>...".
int MinorOf(std::string_view release) {
  if (!release.starts_with("2.")) return -1;
  int minor = 0;
  if (std::sscanf(std::string(release.substr(2)).c_str(), "%d", &minor) != 1) return -1;
  return minor;
}

}  // namespace

std::string EmulatedVersion(const Profile& profile) {
  // `releases`: "2.10", "2.16-2.18", "2.19-2.21" (a trailing "+" means "and later").
  std::string_view releases = profile.releases;
  if (releases.ends_with("+")) releases.remove_suffix(1);
  const std::size_t dash = releases.find('-');
  const std::string_view first = releases.substr(0, dash);
  const std::string_view last = dash == std::string_view::npos ? first : releases.substr(dash + 1);
  const int registry_minor = MinorOf(profile.op_registry);
  if (registry_minor >= MinorOf(first) && registry_minor <= MinorOf(last) && registry_minor >= 0) {
    return profile.op_registry;
  }
  return std::string(last) + ".0";
}

void EmulateProfileRelease(std::string_view profile_name) {
  const Profile* profile = FindProfile(profile_name);
  if (profile == nullptr) return;
  const ops::OpRegistry* registry = ops::FindOpRegistry(profile->op_registry);
  core::SetEmulatedRelease({.version = EmulatedVersion(*profile), .serialized_op_list = [registry] {
                              return registry == nullptr ? std::string()
                                                         : ops::SerializeOpList(*registry);
                            }});
}

}  // namespace conformance::validate
