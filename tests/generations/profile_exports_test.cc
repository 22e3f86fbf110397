// The per-generation export lists (specs/profiles/exports/*.txt): the newest is exactly what the
// mock core exports, each generation exports what the one before it did, and the symbols the
// lists were drawn from sit where TensorFlow's sources put them. Also: each profile names an
// embedded op registry (specs/ops/registry) for load.kernels.*.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "loader/import_audit.h"
#include "ops/registry.h"
#include "validate/core_libraries.h"
#include "validate/profile.h"

namespace conformance::validate {
namespace {

const Profile& Named(const char* name) {
  const Profile* profile = FindProfile(name);
  EXPECT_NE(profile, nullptr) << name;
  return *profile;
}

TEST(ProfileOpRegistry, EachProfileNamesAnEmbeddedRegistry) {
  for (const auto& profile : AllProfiles()) {
    EXPECT_NE(ops::FindOpRegistry(profile.op_registry), nullptr)
        << profile.name << ": op_registry " << profile.op_registry;
  }
  EXPECT_EQ(Named("newest").op_registry, "2.21.0");
  EXPECT_EQ(Named("tf2.10").op_registry, "2.15.1");
}

TEST(ProfileExports, NewestIsWhatTheMockCoreExports) {
  std::set<std::string, std::less<>> core;
  for (const auto& symbol : CoreExports()) {
    if (loader::HasTensorFlowPrefix(symbol)) core.insert(symbol);
  }
  ASSERT_FALSE(core.empty());
  EXPECT_EQ(Named("newest").exports, core)
      << "a function added to harness/core belongs in specs/profiles/exports/newest.txt too";
}

TEST(ProfileExports, EachGenerationExportsWhatTheOneBeforeDid) {
  const auto& profiles = AllProfiles();  // newest first
  for (std::size_t i = 0; i + 1 < profiles.size(); ++i) {
    const auto& newer = profiles[i].exports;
    for (const auto& symbol : profiles[i + 1].exports) {
      EXPECT_TRUE(newer.contains(symbol))
          << profiles[i + 1].name << " exports " << symbol << " but " << profiles[i].name
          << " does not: record such a removal in specs/profiles/README.md";
    }
    EXPECT_GT(newer.size(), profiles[i + 1].exports.size()) << profiles[i].name;
  }
}

TEST(ProfileExports, WhereTheSourcesPutThem) {
  // kernels_experimental.h: first seen in the TensorFlow 2.7 development cycle.
  EXPECT_FALSE(Named("tf2.5").exports.contains("TF_AssignVariable"));
  EXPECT_TRUE(Named("tf2.7").exports.contains("TF_AssignVariable"));
  // kernels.cc of TensorFlow 2.10.0 defines the kernel-name getters; 2.7's kernels.h lacks them.
  EXPECT_FALSE(Named("tf2.7").exports.contains("TF_GetOpKernelName"));
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_GetOpKernelName"));
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_RegisterKernelBuilderWithKernelDef"));
  // Status payloads, the newer kernels.h getters and kernels_experimental.h's second set.
  for (const char* symbol : {"TF_SetPayload", "TF_ForEachPayload", "TF_GetDeviceId",
                             "TF_AssignRefVariable", "TF_ZerosLikeVariant", "TF_SetShape"}) {
    EXPECT_FALSE(Named("tf2.10").exports.contains(symbol)) << symbol;
    EXPECT_TRUE(Named("newest").exports.contains(symbol)) << symbol;
  }
  for (const auto& profile : AllProfiles()) {
    EXPECT_TRUE(profile.exports.contains("TF_GetStream")) << profile.name;
    EXPECT_TRUE(profile.exports.contains("TF_InferStatically")) << profile.name;
    EXPECT_FALSE(profile.releases.empty()) << profile.name;
  }
}

}  // namespace
}  // namespace conformance::validate
