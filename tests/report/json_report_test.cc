// The JSON report: round trip, exact seeds, optional fields, malformed input.
#include "report/json_report.h"

#include <gtest/gtest.h>

#include "report/op_coverage.h"
#include "sample_report.h"

namespace conformance {
namespace {

using nlohmann::json;

TEST(JsonReportTest, RoundTripKeepsEverything) {
  const RunReport original = testing::SampleReport();
  const std::string text = RenderJsonReport(original);
  const RunReport back = RunReportFromJson(json::parse(text));
  // Compared as rendered text: invalid UTF-8 in the original becomes U+FFFD in the file,
  // so the round trip is exact from the first rendering on.
  EXPECT_EQ(RenderJsonReport(back), RenderJsonReport(original));
  EXPECT_EQ(RunReportFromJson(RunReportToJson(back)).results[3].message, back.results[3].message);
  EXPECT_EQ(back.seed, original.seed);
  ASSERT_EQ(back.results.size(), original.results.size());
  EXPECT_EQ(back.results[1].tf_code, 9);
  EXPECT_EQ(back.results[1].details.at("actual"), "my<gpu>");
  ASSERT_TRUE(back.results[4].crash.has_value());
  EXPECT_EQ(back.results[4].crash->backtrace.size(), 2u);
  EXPECT_EQ(back.results[4].plugin_output, original.results[4].plugin_output);
  EXPECT_EQ(back.results[6].waiver_reason, "vendor ticket <1234>");
  ASSERT_TRUE(back.shard.has_value());
  EXPECT_EQ(back.shard->index, 1);
  EXPECT_EQ(back.header_generation, original.header_generation);
  EXPECT_EQ(back.tensorflow_verdict, original.tensorflow_verdict);
}

TEST(JsonReportTest, SeedIsAnExactDecimalString) {
  const json out = RunReportToJson(testing::SampleReport());
  EXPECT_EQ(out.at("seed"), "18446744073709551615");
}

TEST(JsonReportTest, CountsAndVerdictAreDerivedFromResults) {
  const json out = RunReportToJson(testing::SampleReport());
  EXPECT_EQ(out.at("total"), 10);
  EXPECT_EQ(out.at("counts").at("pass"), 2);
  EXPECT_EQ(out.at("counts").at("crash"), 1);
  EXPECT_EQ(out.at("counts").at("unexpected_pass"), 1);
  EXPECT_EQ(out.at("counts").size(), kAllOutcomes.size());
  EXPECT_EQ(out.at("conformant"), false);
}

TEST(JsonReportTest, OptionalFieldsAreOmittedWhenAbsent) {
  RunReport report = testing::SampleReport();
  report.shard.reset();
  report.tensorflow_verdict.reset();
  report.header_generation.reset();
  const json out = RunReportToJson(report);
  EXPECT_FALSE(out.contains("shard"));
  EXPECT_FALSE(out.contains("tensorflow_verdict"));
  EXPECT_FALSE(out.contains("header_generation"));
  EXPECT_FALSE(out.at("results")[0].contains("tf_code"));
  EXPECT_FALSE(out.at("results")[0].contains("crash"));
  EXPECT_FALSE(out.at("results")[0].contains("waiver_reason"));
  const RunReport back = RunReportFromJson(out);
  EXPECT_FALSE(back.shard.has_value());
  EXPECT_FALSE(back.tensorflow_verdict.has_value());
}

TEST(JsonReportTest, OriginComesFromTheCatalogueWhenKnown) {
  const json out = RunReportToJson(testing::SampleReport(), testing::SampleLookup());
  EXPECT_EQ(out.at("results")[0].at("origin"), "tensorflow");
  EXPECT_EQ(out.at("results")[4].at("origin"), "stricter");
  EXPECT_FALSE(out.at("results")[9].contains("origin"));
}

TEST(JsonReportTest, InvalidUtf8IsReplacedNotFatal) {
  const std::string text = RenderJsonReport(testing::SampleReport());
  const json parsed = json::parse(text);  // would throw on invalid UTF-8
  EXPECT_NE(parsed.at("results")[4].at("message").get<std::string>().find("\xef\xbf\xbd"),
            std::string::npos);
}

TEST(JsonReportTest, MalformedInputNamesTheField) {
  json broken = RunReportToJson(testing::SampleReport());
  broken["results"][2].erase("outcome");
  try {
    RunReportFromJson(broken);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("results[2]"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("outcome"), std::string::npos) << error.what();
  }
  json bad_outcome = RunReportToJson(testing::SampleReport());
  bad_outcome["results"][0]["outcome"] = "passed";
  EXPECT_THROW(RunReportFromJson(bad_outcome), std::runtime_error);
  json bad_seed = RunReportToJson(testing::SampleReport());
  bad_seed["seed"] = "12x";
  EXPECT_THROW(RunReportFromJson(bad_seed), std::runtime_error);
  json bad_version = RunReportToJson(testing::SampleReport());
  bad_version["format_version"] = 99;
  EXPECT_THROW(RunReportFromJson(bad_version), std::runtime_error);
}

}  // namespace
}  // namespace conformance

namespace conformance {
namespace {

TEST(JsonReportRootCausesTest, GroupedFailuresAppearOnce) {
  const nlohmann::ordered_json json = RunReportToJson(testing::SampleReport());
  const auto& causes = json.at("root_causes");
  ASSERT_EQ(causes.size(), 2u);  // the unexpected_pass is not a failure
  EXPECT_EQ(causes[1].at("call"), "memcpy_htod");
  EXPECT_EQ(causes[1].at("problem"), "crashed");
  EXPECT_EQ(causes[1].at("checks"), nlohmann::ordered_json::array(
                                        {"runtime.memcpy.htod.unaligned", "runtime.stream.sync"}));
  EXPECT_EQ(causes[0].at("call"), "");
  EXPECT_EQ(json.at("plugin_loaded"), true);
  EXPECT_EQ(json.at("results")[0].at("tier"), "load");
}

// Issue 29 items 9 and 18: a kernel callback's root cause names its kernel (a device callback's
// none), and the registered cells no check judged are listed with the reason.
TEST(JsonReportRootCausesTest, KernelRootCausesAndUnjudgedRegisteredCells) {
  const nlohmann::ordered_json json = RunReportToJson(testing::KernelSampleReport());
  const auto& causes = json.at("root_causes");
  ASSERT_EQ(causes.size(), 3u) << causes.dump(2);
  EXPECT_EQ(causes[0].at("kernel"), "Relu");
  EXPECT_EQ(causes[0].at("checks").size(), 2u);
  EXPECT_EQ(causes[1].at("kernel"), "MatMul");
  EXPECT_EQ(causes[2].at("call"), "deallocate");
  EXPECT_FALSE(causes[2].contains("kernel"));
  EXPECT_EQ(causes[2].at("checks").size(), 2u);
  const auto& registered = json.at("op_coverage").at("registered_kernels");
  EXPECT_EQ(registered.at("cells"), 6);
  EXPECT_EQ(registered.at("judged"), 4);
  ASSERT_EQ(registered.at("unjudged").size(), 2u);
  EXPECT_EQ(registered.at("unjudged")[0].at("op"), "Floor");
  EXPECT_EQ(registered.at("unjudged")[0].at("dtype"), "float");
  EXPECT_EQ(registered.at("unjudged")[0].at("reason"), kNoScenarioReason);
  ASSERT_EQ(json.at("registered_kernels").size(), 6u);
  EXPECT_EQ(json.at("registered_kernels")[4].at("scenario"), false);
  // The registrations are facts of the run: read back, the same coverage again.
  const RunReport back = RunReportFromJson(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.registered_kernels.has_value());
  EXPECT_EQ(RunReportToJson(back).at("op_coverage"), json.at("op_coverage"));
}

TEST(JsonReportRootCausesTest, LoadFailureRoundTrips) {
  RunReport report = testing::SampleReport();
  report.load_failure = "load.library.dlopen: gone";
  const RunReport back = RunReportFromJson(nlohmann::json::parse(RenderJsonReport(report)));
  EXPECT_EQ(back.load_failure, "load.library.dlopen: gone");
  EXPECT_FALSE(back.PluginLoaded());
  EXPECT_EQ(back.results[0].tier, "load");
}

}  // namespace
}  // namespace conformance
