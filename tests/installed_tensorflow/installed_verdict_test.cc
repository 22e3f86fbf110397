#include "installed_tensorflow/installed_verdict.h"

#include <gtest/gtest.h>

namespace tensorflow_driver {
namespace {

using nlohmann::json;

const std::string kMessage = "'mem_zero' field in SP_StreamExecutor must be set.";

json Loaded() {
  return {{"tensorflow_version", "2.21.0"},
          {"outcome", "loaded"},
          {"load_status", {{"code", 0}, {"message", ""}}},
          {"devices_outcome", "created"}};
}

json Aborted() {
  return {{"tensorflow_version", "2.21.0"},
          {"outcome", "aborted"},
          {"fatal",
           {{"line", "F... Check failed"},
            {"message", kMessage},
            {"code", 9},
            {"code_name", "FAILED_PRECONDITION"}}}};
}

Verdict EmulatedRefusal(int code, std::string message) {
  Verdict verdict;
  verdict.kind = Verdict::Kind::kRefuses;
  verdict.code = code;
  verdict.message = std::move(message);
  return verdict;
}

Verdict EmulatedLoads() {
  Verdict verdict;
  verdict.kind = Verdict::Kind::kLoads;
  return verdict;
}

TEST(InstalledSummary, SaysWhatTensorFlowDid) {
  EXPECT_EQ(InstalledSummary(Loaded()), "loads the plugin");
  EXPECT_EQ(InstalledSummary(Aborted()), "aborts: FAILED_PRECONDITION: " + kMessage);
  json refused = {{"outcome", "refused"},
                  {"load_status", {{"code", 5}, {"message", "libx.so: cannot open"}}}};
  EXPECT_EQ(InstalledSummary(refused), "refuses the plugin: NOT_FOUND: libx.so: cannot open");
  json loaded_then_aborted = Loaded();
  loaded_then_aborted["devices_outcome"] = "aborted";
  loaded_then_aborted["devices_fatal"] = {{"message", "boom"}, {"code", 13}};
  EXPECT_EQ(InstalledSummary(loaded_then_aborted), "aborts: INTERNAL: boom");
  EXPECT_EQ(InstalledSummary({{"outcome", "crashed"}}), "dies: crash");
}

TEST(InstalledTensorFlowReport, AgreementCarriesNoFinding) {
  const json report = InstalledTensorFlowReport(Aborted(), "/tf", EmulatedRefusal(9, kMessage));
  EXPECT_EQ(report["release"], "2.21.0");
  EXPECT_EQ(report["dir"], "/tf");
  EXPECT_EQ(report["verdict"], "refuses");
  EXPECT_EQ(report["code"], 9);
  EXPECT_EQ(report["message"], kMessage);
  EXPECT_TRUE(report["agrees"].get<bool>());
  EXPECT_FALSE(report.contains("finding"));
}

TEST(InstalledTensorFlowReport, ADifferentMessageIsAFindingWithBothTexts) {
  const json report =
      InstalledTensorFlowReport(Aborted(), "/tf", EmulatedRefusal(9, kMessage + " (ours)"));
  EXPECT_FALSE(report["agrees"].get<bool>());
  const std::string finding = report["finding"];
  EXPECT_NE(finding.find("refuses: FAILED_PRECONDITION (9): " + kMessage + " (ours)"),
            std::string::npos)
      << finding;
  EXPECT_NE(finding.find("TensorFlow 2.21.0 (installed) (refuses: FAILED_PRECONDITION (9): " +
                         kMessage + ")"),
            std::string::npos)
      << finding;
  EXPECT_NE(finding.find("against plugin_conformance"), std::string::npos) << finding;
}

TEST(InstalledTensorFlowReport, LoadsInOneAndNotTheOtherIsAFinding) {
  const json report = InstalledTensorFlowReport(Loaded(), "/tf", EmulatedRefusal(9, kMessage));
  EXPECT_FALSE(report["agrees"].get<bool>());
  EXPECT_EQ(report["installed"], "loads");
  EXPECT_TRUE(report.contains("finding"));
  EXPECT_TRUE(InstalledTensorFlowReport(Loaded(), "/tf", EmulatedLoads())["agrees"].get<bool>());
}

}  // namespace
}  // namespace tensorflow_driver
