// TensorFlow's verdict is derived from the results: the first failure carrying a TF_Code
// (TensorFlow stops there), or the first crash/hang (TensorFlow's process dies with it).
#include <gtest/gtest.h>

#include "model/tensorflow_fails_at.h"
#include "run/tensorflow_verdict.h"

namespace conformance {
namespace {

CheckResult Result(std::string id, Outcome outcome, std::optional<int> tf_code = {},
                   std::string message = {}) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.tf_code = tf_code;
  result.message = std::move(message);
  return result;
}

TEST(TensorFlowVerdict, FirstFailureWithATensorFlowCodeDecides) {
  RunReport report;
  report.results = {
      Result("load.library.dlopen", Outcome::kPass),
      Result("load.se.platform_fns.get_device_count", Outcome::kFail),  // ours: no code
      Result("load.se.platform.name_regex", Outcome::kFail, 9,
             "Device name/type 'x' must match [A-Z][A-Z_]*."),
      Result("load.se.stream_executor.memset", Outcome::kFail, 9, "later")};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), false);
  EXPECT_EQ(report.tensorflow_verdict->at("check"), "load.se.platform.name_regex");
  EXPECT_EQ(report.tensorflow_verdict->at("code"), 9);
}

// A status TensorFlow raises at the plugin's first use (a HostMemory arg the op lacks) comes
// after every status of the loading, even one the suite reports later (the profiler module).
TEST(TensorFlowVerdict, AFailureAtFirstUseYieldsToAFailureWhileLoading) {
  CheckResult first_use =
      Result("load.kernels.host_memory", Outcome::kFail, 3, "HostMemory arg 'axis' not found");
  first_use.details[std::string(kTensorFlowFailsAt)] = std::string(kAtFirstUse);
  RunReport report;
  report.results = {Result("load.library.dlopen", Outcome::kPass), first_use,
                    Result("load.profiler.init", Outcome::kFail, 9, "profiler refused")};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("check"), "load.profiler.init");

  report.results.pop_back();
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("check"), "load.kernels.host_memory");
  EXPECT_EQ(report.tensorflow_verdict->at("code"), 3);
}

// A failure the emulated release logs and loads the plugin anyway (a profiler module before
// 2.12, profile fact `profiler_module`) stays a failure but is no refusal: the verdict is the
// next failure TensorFlow enforces, or "loads".
TEST(TensorFlowVerdict, AFailureTensorFlowNeverRefusesForIsNoRefusal) {
  CheckResult logged = Result("load.profiler.profiler.device_type", Outcome::kFail, 9,
                              "'device_type' field in TP_Profiler must be set.");
  logged.details[std::string(kTensorFlowFailsAt)] = std::string(kNever);
  RunReport report;
  report.results = {Result("load.library.dlopen", Outcome::kPass), logged};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), true);

  report.results.push_back(Result("load.opened_libraries", Outcome::kFail, 5, "undefined symbol"));
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("check"), "load.opened_libraries");
}

// A plugin importing TensorFlow's C++ symbols cannot be hosted by the mock core: the verdict
// says it is unknown here instead of staying silent (and is no refusal).
TEST(TensorFlowVerdict, UnknownForAPluginImportingTensorFlowsCxxSymbols) {
  RunReport report;
  report.results = {Result("load.library.file", Outcome::kPass),
                    Result("load.library.tensorflow_cxx", Outcome::kNotSupported),
                    Result("load.library.dlopen", Outcome::kSkipped)};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("unknown"), true);
  EXPECT_FALSE(report.tensorflow_verdict->contains("loads"));
  EXPECT_EQ(report.tensorflow_verdict->at("summary"), std::string(kUnknownWithoutTensorFlow));
  EXPECT_FALSE(TensorFlowRefuses(report.tensorflow_verdict));
}

TEST(TensorFlowVerdict, CrashMeansTheProcessDies) {
  RunReport report;
  report.results = {Result("load.library.dlopen", Outcome::kPass),
                    Result("load.se.init", Outcome::kCrash)};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), false);
  EXPECT_FALSE(report.tensorflow_verdict->contains("code"));
  EXPECT_NE(report.tensorflow_verdict->at("summary").get<std::string>().find("dies"),
            std::string::npos);
}

TEST(TensorFlowVerdict, QuotesTensorFlowsOwnMessageAndDiesWhereTensorFlowCrashes) {
  RunReport report;
  CheckResult dlopen = Result("load.library.elf", Outcome::kFail, 5,
                              "ours — TensorFlow: dlopen failed: p.so: invalid ELF header");
  dlopen.details["tensorflow_message"] = "p.so: invalid ELF header";
  report.results = {dlopen};
  FillTensorFlowVerdict(report);
  EXPECT_EQ(report.tensorflow_verdict->at("message"), "p.so: invalid ELF header");
  EXPECT_EQ(report.tensorflow_verdict->at("code"), 5);

  CheckResult unchecked_null = Result("load.se.platform_fns.get_device_count", Outcome::kFail);
  unchecked_null.details["tensorflow_outcome"] = "crash";
  report.results = {Result("load.library.dlopen", Outcome::kPass), unchecked_null};
  FillTensorFlowVerdict(report);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), false);
  EXPECT_EQ(report.tensorflow_verdict->at("dies"), "crash");
  EXPECT_FALSE(report.tensorflow_verdict->contains("code"));
}

TEST(TensorFlowVerdict, ACrashInALaterTierIsThatChecksFindingNotALoadVerdict) {
  RunReport report;
  report.results = {Result("load.library.dlopen", Outcome::kPass),
                    Result("kernel.Conv2D.injected_faults", Outcome::kCrash)};
  FillTensorFlowVerdict(report);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), true);
}

TEST(TensorFlowVerdict, NoVerdictWhenTheLoadTierDidNotRun) {
  RunReport report;
  report.results = {Result("runtime.memcpy.htod", Outcome::kPass)};
  FillTensorFlowVerdict(report);
  EXPECT_FALSE(report.tensorflow_verdict);
}

TEST(TensorFlowVerdict, HeaderGenerationComesFromItsCheck) {
  RunReport report;
  CheckResult generation = Result("load.se.header_generation", Outcome::kPass);
  generation.details["generation"] = "TF 2.10 and later";
  report.results = {Result("load.library.dlopen", Outcome::kPass), generation};
  FillTensorFlowVerdict(report);
  EXPECT_EQ(report.header_generation, "TF 2.10 and later");
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), true);
}

// Issue 6 §3: with --co-load, duplicate platform checks (TensorFlow-origin, no TF_Code: the
// platform manager's refusal aborts) decide the verdict too.
TEST(TensorFlowVerdict, EveryTensorFlowOriginFailureCountsCoLoadIncluded) {
  RunReport report;
  report.results = {Result("load.library.dlopen", Outcome::kPass),
                    Result("load.se.device.handle", Outcome::kFail, {}, "ours"),
                    Result("load.se.platform.unique_name", Outcome::kFail, {},
                           "TensorFlow aborts: platform 'MY_DEVICE' is already registered")};
  const OriginLookup origin_of = [](std::string_view id) -> std::optional<Origin> {
    if (id == "load.se.platform.unique_name") return Origin::kTensorFlow;
    if (id == "load.se.device.handle") return Origin::kStricter;
    return std::nullopt;
  };
  FillTensorFlowVerdict(report);  // without origins, only TF_Codes count
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), true);
  FillTensorFlowVerdict(report, origin_of);
  ASSERT_TRUE(report.tensorflow_verdict);
  EXPECT_EQ(report.tensorflow_verdict->at("loads"), false);
  EXPECT_EQ(report.tensorflow_verdict->at("check"), "load.se.platform.unique_name");
  EXPECT_NE(report.tensorflow_verdict->at("summary").get<std::string>().find(
                "refuses the plugin (load.se.platform.unique_name): TensorFlow aborts"),
            std::string::npos);
  EXPECT_TRUE(TensorFlowRefuses(report.tensorflow_verdict));
}

}  // namespace
}  // namespace conformance
