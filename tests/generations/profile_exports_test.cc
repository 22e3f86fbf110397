// The per-generation export lists (specs/profiles/exports/*.txt): the newest is exactly what the
// mock core exports, each generation exports what the one before it did, and the symbols the
// lists were drawn from sit where TensorFlow's sources put them. Also: each profile names an
// embedded op registry (specs/ops/registry) for load.kernels.*, and the release TF_Version names.
#include <algorithm>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "loader/import_audit.h"
#include "ops/registry.h"
#include "validate/core_libraries.h"
#include "validate/emulated_release.h"
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
  EXPECT_EQ(Named("tf2.15").op_registry, "2.15.1");
  EXPECT_EQ(Named("tf2.10").op_registry, "2.10.1");  // the release audit's 2.10.1 registry
  // No registry of 2.9 or 2.11 to 2.14 is committed: the nearest newer one (no false warning).
  EXPECT_EQ(Named("tf2.9").op_registry, "2.10.1");
  // Nor of 2.5 to 2.8: 2.10.1's is nearer than 2.15.1's (the audit's per-op hashes), and it is
  // what they print of Mean (tensorflow.agreement).
  for (const char* name : {"tf2.7", "tf2.6", "tf2.5"})
    EXPECT_EQ(Named(name).op_registry, "2.10.1") << name;
  for (const char* name : {"tf2.11", "tf2.12", "tf2.13", "tf2.14"})
    EXPECT_EQ(Named(name).op_registry, "2.15.1") << name;
}

// A profile's `kernel_values` is a release of its own range whose CPU values were recorded: the
// record's own (2.21.0) or one with an overlay folder (specs/ops/record/<release>/overlay.json).
TEST(ProfileKernelValues, EachNamesARecordedReleaseOfItsRange) {
  const auto minor = [](const std::string& release) { return std::stoi(release.substr(2)); };
  for (const auto& profile : AllProfiles()) {
    EXPECT_FALSE(profile.kernel_values.empty()) << profile.name << ": no release's values";
    if (profile.kernel_values.empty()) continue;
    std::string releases = profile.releases;
    if (releases.ends_with("+")) releases.pop_back();
    const std::size_t dash = releases.find('-');
    const int first = minor(releases.substr(0, dash));
    const int last = dash == std::string::npos ? first : minor(releases.substr(dash + 1));
    const int values = minor(profile.kernel_values);
    EXPECT_TRUE(values >= first && values <= last)
        << profile.name << ": kernel_values " << profile.kernel_values << " is not in "
        << profile.releases;
    if (profile.kernel_values == "2.21.0") continue;  // the record itself
    EXPECT_TRUE(std::filesystem::is_regular_file(std::string(RECORD_DIR) + "/" +
                                                 profile.kernel_values + "/overlay.json"))
        << profile.name << ": no overlay of " << profile.kernel_values;
  }
  EXPECT_EQ(Named("newest").kernel_values, "2.21.0");
  EXPECT_EQ(Named("tf2.15").kernel_values, "2.15.1");
  EXPECT_EQ(Named("tf2.19").kernel_values, "2.20.0");  // the newest of 2.19-2.20, as TF_Version
  EXPECT_EQ(Named("tf2.7").kernel_values, "2.8.4");    // the newest of 2.7-2.8
}

// Which callbacks each release validates, measured with `strings` on every wheel's libraries:
// "'create_timer_fns' field in SP_PlatformFns must be set." and the other timer messages are in
// 2.5.3 to 2.13.1 and in no release from 2.14.1 on.
TEST(ProfileValidation, TimersAreRequiredUpTo213) {
  for (const auto& profile : AllProfiles()) {
    const bool timed = profile.name == "tf2.5" || profile.name == "tf2.6" ||
                       profile.name == "tf2.7" || profile.name == "tf2.9" ||
                       profile.name == "tf2.10" || profile.name == "tf2.11" ||
                       profile.name == "tf2.12" || profile.name == "tf2.13";
    EXPECT_EQ(profile.calls_timer_fns, timed) << profile.name;
    const auto& required = profile.platform_fns_required;
    EXPECT_EQ(std::find(required.begin(), required.end(), "create_timer_fns") != required.end(),
              timed)
        << profile.name;
  }
}

// What TF_Version answers under each profile (validate/emulated_release.h).
TEST(ProfileOpRegistry, EmulatedVersionIsAReleaseTheProfileStandsFor) {
  EXPECT_EQ(EmulatedVersion(Named("newest")), "2.21.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.15")), "2.15.1");
  EXPECT_EQ(EmulatedVersion(Named("tf2.10")), "2.10.1");
  EXPECT_EQ(EmulatedVersion(Named("tf2.19")), "2.20.0");  // registry 2.21.0 is not 2.19-2.20
  EXPECT_EQ(EmulatedVersion(Named("tf2.18")), "2.18.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.17")), "2.17.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.16")), "2.16.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.14")), "2.14.0");  // registry 2.15.1, the nearest newer
  EXPECT_EQ(EmulatedVersion(Named("tf2.9")), "2.9.0");    // registry 2.10.1
  EXPECT_EQ(EmulatedVersion(Named("tf2.7")), "2.8.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.6")), "2.6.0");
  EXPECT_EQ(EmulatedVersion(Named("tf2.5")), "2.5.0");
}

std::set<std::string, std::less<>> MockCoreExports() {
  std::set<std::string, std::less<>> core;
  for (const auto& symbol : CoreExports()) {
    if (loader::IsAuditedTensorFlowImport(symbol)) core.insert(symbol);
  }
  return core;
}

// The mock core serves every profile; a profile measured on a wheel classifies each of its
// functions as exported by that release or not (and the import audit refuses the latter).
TEST(ProfileExports, MeasuredProfilesClassifyEveryMockCoreExport) {
  const auto core = MockCoreExports();
  ASSERT_FALSE(core.empty());
  for (const Profile& profile : AllProfiles()) {
    std::set<std::string, std::less<>> listed = profile.exports;
    listed.insert(profile.not_exported.begin(), profile.not_exported.end());
    EXPECT_EQ(listed, core) << profile.name
                            << ": a function added to harness/core belongs in its "
                               "exports or not_exported list";
    // What a plugin linking _pywrap_tensorflow_internal.so reaches besides is not exported to
    // one linking the framework alone.
    for (const auto& symbol : profile.pywrap_exports)
      EXPECT_TRUE(profile.not_exported.contains(symbol)) << profile.name << ": " << symbol;
  }
  // Measured on tensorflow-cpu 2.21.0 and 2.15.1 (tensorflow.exports.* keep the lists true).
  EXPECT_TRUE(Named("newest").not_exported.contains("TF_AssignUpdateVariable"));
  EXPECT_TRUE(Named("tf2.15").exports.contains("TF_AssignUpdateVariable"));
  EXPECT_TRUE(Named("tf2.15").not_exported.contains("TF_GetOutputPropertiesListSize"));
  EXPECT_TRUE(Named("newest").exports.contains("TF_GetOutputPropertiesListSize"));
  // The release audit's facts for 2.16.2 to 2.21.0 (releases.exports.* keep the lists true): the
  // resource-variable API a plugin linking the framework binds to until 2.18,
  // TF_TensorDefaultAlignment, which no 2.16.2 library defines (2.17.1 on do), and TF_Log,
  // which 2.19.1's and 2.20.0's framework library define and 2.21.0's does not. One profile per
  // distinct set, or per distinct NextPluggableDevice rule: 2.17 and 2.18 export the same.
  EXPECT_EQ(Named("tf2.17").exports, Named("tf2.18").exports);
  for (const char* profile : {"tf2.16", "tf2.17", "tf2.18"})
    EXPECT_TRUE(Named(profile).exports.contains("TF_AssignVariable")) << profile;
  for (const char* profile : {"tf2.19", "newest"})
    EXPECT_TRUE(Named(profile).not_exported.contains("TF_AssignVariable")) << profile;
  EXPECT_TRUE(Named("tf2.16").not_exported.contains("TF_TensorDefaultAlignment"));
  for (const char* profile : {"tf2.17", "tf2.18", "tf2.19", "newest"})
    EXPECT_TRUE(Named(profile).exports.contains("TF_TensorDefaultAlignment")) << profile;
  for (const char* profile : {"tf2.16", "tf2.17", "tf2.18", "tf2.19"})
    EXPECT_TRUE(Named(profile).exports.contains("TF_Log")) << profile;
  EXPECT_TRUE(Named("newest").not_exported.contains("TF_Log"));
  EXPECT_EQ(Named("tf2.16").releases, "2.16");
  EXPECT_EQ(Named("tf2.17").releases, "2.17");
  EXPECT_EQ(Named("tf2.18").releases, "2.18");
  EXPECT_EQ(Named("tf2.19").releases, "2.19-2.20");
  EXPECT_EQ(Named("newest").releases, "2.21");
}

TEST(ProfileExports, EachGenerationExportsWhatTheOneBeforeDidUnlessMeasuredOtherwise) {
  const auto& profiles = AllProfiles();  // newest first
  for (std::size_t i = 0; i + 1 < profiles.size(); ++i) {
    const Profile& newer = profiles[i];
    const Profile& older = profiles[i + 1];
    for (const auto& symbol : older.exports) {
      EXPECT_TRUE(newer.exports.contains(symbol) || newer.not_exported.contains(symbol))
          << older.name << " exports " << symbol << " but " << newer.name
          << " does not: a measured removal belongs in its not_exported list";
    }
    // Two profiles stand for two different sets (2.21 only removes, TF_Log and TF_VLog), or for
    // two TensorFlows that treat a plugin differently otherwise: 2.18 exports what 2.17 does but
    // takes any PJRT API version from 0.29 where 2.17 takes 0.54 only.
    const bool same_pjrt_rule = newer.pjrt_api.min_minor == older.pjrt_api.min_minor &&
                                newer.pjrt_api.exact_minor == older.pjrt_api.exact_minor &&
                                newer.pjrt_api.struct_size == older.pjrt_api.struct_size;
    if (same_pjrt_rule) {
      EXPECT_NE(newer.exports, older.exports)
          << newer.name << " and " << older.name << " export the same: one profile would do";
    }
  }
}

// tensorflow::internal::LogMessageFatal (outside the release audit's facts): `nm -D
// --defined-only` finds it in libtensorflow_framework.so.2 of 2.5.3 to 2.10.1 (2.9.3: measured
// again for issue 27, its list had it as not exported) and not from 2.11.1 on.
TEST(ProfileExports, TheFatalLogIsExportedUpTo210) {
  const std::string fatal = "_ZN10tensorflow8internal15LogMessageFatalC1EPKci";
  for (const Profile& profile : AllProfiles()) {
    const bool exported = profile.name == "tf2.5" || profile.name == "tf2.6" ||
                          profile.name == "tf2.7" || profile.name == "tf2.9" ||
                          profile.name == "tf2.10";
    EXPECT_EQ(profile.exports.contains(fatal), exported) << profile.name;
    EXPECT_EQ(profile.not_exported.contains(fatal), !exported) << profile.name;
  }
}

TEST(ProfileExports, WhereTheSourcesPutThem) {
  // kernels_experimental.h: first seen in the TensorFlow 2.7 development cycle.
  EXPECT_FALSE(Named("tf2.5").exports.contains("TF_AssignVariable"));
  EXPECT_TRUE(Named("tf2.7").exports.contains("TF_AssignVariable"));
  // The release audit's facts: 2.6.5's libtensorflow_framework.so.2 defines the variable API
  // and ops.h's op definition API, 2.5.3's neither (so 2.5 and 2.6 are two profiles).
  for (const char* symbol : {"TF_AssignVariable", "TF_OpDefinitionBuilderAddAttr"}) {
    EXPECT_TRUE(Named("tf2.6").exports.contains(symbol)) << symbol;
    EXPECT_TRUE(Named("tf2.5").not_exported.contains(symbol)) << symbol;
  }
  EXPECT_EQ(Named("tf2.6").releases, "2.6");
  EXPECT_EQ(Named("tf2.5").releases, "2.5");
  // kernels.cc of TensorFlow 2.10.0 defines the kernel-name getters; 2.7's kernels.h lacks them.
  EXPECT_FALSE(Named("tf2.7").exports.contains("TF_GetOpKernelName"));
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_GetOpKernelName"));
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_RegisterKernelBuilderWithKernelDef"));
  // The newer kernels.h getters and the status payloads' iterator.
  for (const char* symbol : {"TF_ForEachPayload", "TF_GetDeviceId", "TF_SetShape"}) {
    EXPECT_FALSE(Named("tf2.10").exports.contains(symbol)) << symbol;
    EXPECT_TRUE(Named("tf2.15").exports.contains(symbol)) << symbol;
  }
  // The release audit's facts: 2.10.1's libtensorflow_framework.so.2 defines TF_SetPayload and
  // TF_IsRefInput (the reading of 2.10.0's source that left them out was wrong).
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_SetPayload"));
  EXPECT_TRUE(Named("tf2.10").exports.contains("TF_IsRefInput"));
  for (const char* symbol : {"TF_SetPayload", "TF_ForEachPayload", "TF_GetDeviceId", "TF_SetShape"})
    EXPECT_TRUE(Named("newest").exports.contains(symbol)) << symbol;
  // Measured on the tensorflow-cpu 2.10.1 wheel (DirectML's plugin, built for 2.10, imports
  // them): kernels_experimental.h's second set is there, and tensorflow::internal's fatal log,
  // which 2.15.1 and 2.21.0 do not export.
  for (const char* symbol : {"TF_AssignRefVariable", "TF_ZerosLikeVariant", "TF_AddNVariant",
                             "TF_Log", "_ZN10tensorflow8internal15LogMessageFatalC1EPKci"}) {
    EXPECT_TRUE(Named("tf2.10").exports.contains(symbol)) << symbol;
  }
  EXPECT_TRUE(Named("tf2.10").pywrap_exports.contains("TFE_Execute"));
  // 2.7 and 2.8 (the release audit's facts): the eager functions and grappler.h's are defined in
  // _pywrap_tensorflow_internal.so only, which a plugin that links it (as DirectML does) reaches.
  for (const char* symbol : {"TFE_Execute", "TF_GetOutputPropertiesListSize"}) {
    EXPECT_TRUE(Named("tf2.7").not_exported.contains(symbol)) << symbol;
    EXPECT_TRUE(Named("tf2.7").pywrap_exports.contains(symbol)) << symbol;
    EXPECT_TRUE(ReachableExports(Named("tf2.7"), {"libc.so.6", "_pywrap_tensorflow_internal.so"})
                    .contains(symbol))
        << symbol;
    EXPECT_FALSE(
        ReachableExports(Named("tf2.7"), {"libtensorflow_framework.so.2"}).contains(symbol))
        << symbol;
  }
  EXPECT_TRUE(
      Named("tf2.15").not_exported.contains("_ZN10tensorflow8internal15LogMessageFatalD1Ev"));
  EXPECT_TRUE(Named("newest").not_exported.contains("TF_Log"));
  EXPECT_TRUE(Named("newest").exports.contains("TFE_NewContext"));
  for (const auto& profile : AllProfiles()) {
    EXPECT_TRUE(profile.exports.contains("TF_GetStream")) << profile.name;
    // grappler.h: only where every library is global (RTLD_GLOBAL: 2.19 on, newest and tf2.19).
    // The lists of 2.5 to 2.18 (RTLD_LOCAL) leave it out: those releases define it in
    // _pywrap_tensorflow_internal.so or libtensorflow_cc.so.2, which a plugin linking the
    // framework cannot bind to.
    EXPECT_EQ(profile.exports.contains("TF_InferStatically"),
              profile.name == "newest" || profile.name == "tf2.19")
        << profile.name;
    EXPECT_FALSE(profile.releases.empty()) << profile.name;
  }
}

}  // namespace
}  // namespace conformance::validate
