// The recorded oracle's reader (harness/kernels/recorded_oracle.h): what it finds for a
// generated case, how a changed generator shows (out of date, never a result), and the JSON
// cases made back into runnable ones (case_from_json.h).
#include "kernels/recorded_oracle.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <variant>

#include "kernels/case_from_json.h"
#include "kernels/tensorflow_cpu_oracle.h"
#include "model/check_result.h"
#include "model/outcome.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

json FloorCase(int shape_index, const std::string& hex) {
  return {{"id", "kernel.Floor.float.generated"},
          {"op", "Floor"},
          {"dtype", "float"},
          {"shape_index", shape_index},
          {"variant", "rank 1 [1]"},
          {"attrs", {{"T", {{"type", 1}}}}},
          {"inputs", {{{"name", "x"}, {"dtype", "float"}, {"shape", {1}}, {"hex", hex}}}},
          {"outputs", {{{"name", "y"}}}}};
}

class RecordedOracleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("recorded_oracle_test." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / kRecordedRelease);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Write(const std::string& op, const json& record,
             const std::string& release = kRecordedRelease) {
    std::filesystem::create_directories(dir_ / release);
    const std::string path = (dir_ / release / (op + ".json.gz")).string();
    gzFile file = gzopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    const std::string text = record.dump();
    gzwrite(file, text.data(), static_cast<unsigned>(text.size()));
    gzclose(file);
  }

  std::filesystem::path dir_;
};

TEST_F(RecordedOracleTest, DigestsDependOnAttrsAndInputsAlone) {
  const json a = FloorCase(0, "0000c0bf");  // -1.5
  json b = a;
  b["variant"] = "another text";
  EXPECT_EQ(AttrsDigest(a), AttrsDigest(b));
  EXPECT_EQ(InputsDigest(a), InputsDigest(b));
  b["inputs"][0]["hex"] = "0000c03f";
  EXPECT_NE(InputsDigest(a), InputsDigest(b));
  b["attrs"]["T"]["type"] = 2;
  EXPECT_NE(AttrsDigest(a), AttrsDigest(b));
  EXPECT_EQ(AttrsDigest(a).size(), 16u);
}

TEST_F(RecordedOracleTest, FindsTheResultMadeFromTheSameInputs) {
  const json kernel_case = FloorCase(3, "0000c0bf");
  const json cpu = {{"outputs", {{{"dtype", 1}, {"shape", {1}}, {"hex", "000000c0"}}}}};
  Write("Floor", {{"op", "Floor"},
                  {"cells",
                   {{"float",
                     {{{"shape_index", 3},
                       {"attrs", AttrsDigest(kernel_case)},
                       {"inputs", InputsDigest(kernel_case)},
                       {"cpu", cpu}}}}}}});
  const RecordedOp record(dir_.string(), "Floor");
  EXPECT_EQ(record.unavailable(), "");
  const RecordedCase found = record.Find(kernel_case);
  ASSERT_EQ(found.kind, RecordedCase::Kind::kResult) << found.reason;
  EXPECT_EQ(found.cpu, cpu);

  // The generator now makes other inputs for the same case: out of date, said as the suite's.
  const RecordedCase stale = record.Find(FloorCase(3, "0000c03f"));
  EXPECT_EQ(stale.kind, RecordedCase::Kind::kOutOfDate);
  EXPECT_NE(stale.reason.find("record out of date"), std::string::npos) << stale.reason;

  // Another shape entry, another dtype, other attrs: not recorded.
  EXPECT_EQ(record.Find(FloorCase(4, "0000c0bf")).kind, RecordedCase::Kind::kNotRecorded);
  json half = kernel_case;
  half["dtype"] = "half";
  EXPECT_EQ(record.Find(half).kind, RecordedCase::Kind::kNotRecorded);
  json other_attrs = kernel_case;
  other_attrs["attrs"]["T"]["type"] = 2;
  EXPECT_EQ(record.Find(other_attrs).kind, RecordedCase::Kind::kNotRecorded);
}

TEST_F(RecordedOracleTest, LeftOutCasesAndOpsSayWhy) {
  const json kernel_case = FloorCase(0, "0000c0bf");
  Write("Floor", {{"op", "Floor"},
                  {"cells",
                   {{"float",
                     {{{"shape_index", 0},
                       {"attrs", AttrsDigest(kernel_case)},
                       {"inputs", InputsDigest(kernel_case)},
                       {"left_out", "a string output"}}}}}}});
  const RecordedCase found = RecordedOp(dir_.string(), "Floor").Find(kernel_case);
  EXPECT_EQ(found.kind, RecordedCase::Kind::kLeftOut);
  EXPECT_EQ(found.reason, "a string output");

  Write("RandomUniform", {{"op", "RandomUniform"}, {"left_out", "a stateful op"}});
  const RecordedOp stateful(dir_.string(), "RandomUniform");
  EXPECT_NE(stateful.unavailable().find("a stateful op"), std::string::npos);
  EXPECT_EQ(stateful.Find(kernel_case).kind, RecordedCase::Kind::kLeftOut);
}

TEST_F(RecordedOracleTest, MissingOrBrokenFilesAreNotRecorded) {
  const RecordedOp missing(dir_.string(), "Floor");
  EXPECT_NE(missing.unavailable().find("has no file for Floor"), std::string::npos);
  EXPECT_EQ(missing.Find(FloorCase(0, "00")).kind, RecordedCase::Kind::kNotRecorded);
  const std::string path = (dir_ / kRecordedRelease / "Ceil.json.gz").string();
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, "{not json", 9);
  gzclose(file);
  EXPECT_NE(RecordedOp(dir_.string(), "Ceil").unavailable().find("does not parse"),
            std::string::npos);
}

// A cell of a release's overlay (what that release's CPU computes otherwise) replaces the
// record's cell for a plugin judged for that release; its other cells, and every cell for any
// other release, stay the record's.
TEST_F(RecordedOracleTest, AReleaseOverlayReplacesItsCellsOnly) {
  json float_case = FloorCase(0, "0000c0bf");
  json double_case = float_case;
  double_case["dtype"] = "double";
  const auto entry = [](const json& kernel_case, const std::string& hex) {
    return json{{"shape_index", 0},
                {"attrs", AttrsDigest(kernel_case)},
                {"inputs", InputsDigest(kernel_case)},
                {"cpu", {{"outputs", {{{"hex", hex}}}}}}};
  };
  Write("Floor", {{"op", "Floor"},
                  {"cells",
                   {{"float", {entry(float_case, "000000c0")}},
                    {"double", {entry(double_case, "00000000000000c0")}}}}});
  Write("Floor", {{"op", "Floor"}, {"cells", {{"float", {entry(float_case, "0000803f")}}}}},
        "2.15.1");
  const RecordedOp for_2_15(dir_.string(), "Floor", "2.15.1");
  const RecordedCase overlaid = for_2_15.Find(float_case);
  ASSERT_EQ(overlaid.kind, RecordedCase::Kind::kResult) << overlaid.reason;
  EXPECT_EQ(overlaid.release, "2.15.1");
  EXPECT_EQ(overlaid.cpu["outputs"][0]["hex"], "0000803f");
  const RecordedCase kept = for_2_15.Find(double_case);
  EXPECT_EQ(kept.release, kRecordedRelease);
  EXPECT_EQ(kept.cpu["outputs"][0]["hex"], "00000000000000c0");
  EXPECT_EQ(for_2_15.ReleaseOf("float"), "2.15.1");
  EXPECT_EQ(for_2_15.ReleaseOf("double"), kRecordedRelease);

  const RecordedCase newest = RecordedOp(dir_.string(), "Floor").Find(float_case);
  EXPECT_EQ(newest.release, kRecordedRelease);
  EXPECT_EQ(newest.cpu["outputs"][0]["hex"], "000000c0");
  // A release without an overlay of the op: the record's values.
  EXPECT_EQ(RecordedOp(dir_.string(), "Floor", "2.16.2").Find(float_case).cpu["outputs"][0]["hex"],
            "000000c0");

  // A damaged overlay judges nothing rather than falling back to another release's values.
  const std::string path = (dir_ / "2.15.1" / "Floor.json.gz").string();
  gzFile file = gzopen(path.c_str(), "wb");
  gzwrite(file, "{not json", 9);
  gzclose(file);
  const RecordedOp damaged(dir_.string(), "Floor", "2.15.1");
  EXPECT_NE(damaged.unavailable().find("2.15.1/Floor.json.gz"), std::string::npos)
      << damaged.unavailable();
  EXPECT_EQ(damaged.Find(double_case).kind, RecordedCase::Kind::kNotRecorded);
}

// A half sum's value is each release's own (2.15's half MatMul summed in half, 15% off float64
// over K = 1100), so where the record ran the case in float64 too, a plugin's result agrees with
// either: the judging release's CPU (an overlay's) or that float64 run, which every release
// shares. One that agrees with neither still fails, and says so.
TEST_F(RecordedOracleTest, AHalfSumAgreesWithTheReleasesCpuOrWithItsFloat64Run) {
  const json kernel_case = {
      {"id", "kernel.Sum.half.generated"},
      {"op", "Sum"},
      {"dtype", "half"},
      {"shape_index", 0},
      {"variant", "1100 terms"},
      {"generated", true},
      {"scenario", "generated"},
      {"attrs", {{"T", {{"type", 19}}}}},
      {"inputs", {{{"name", "input"}, {"dtype", "half"}, {"shape", {1}}, {"hex", "0049"}}}},
      {"outputs", {{{"name", "output"}}}},
      {"tolerance", {{"atol", 0.25}, {"rtol", 0.004}, {"ulp", 0}}}};
  const auto half = [](const std::string& hex) {
    return json{{"outputs", {{{"dtype", 19}, {"shape", json::array()}, {"hex", hex}}}}};
  };
  const json wide = {
      {"outputs", {{{"dtype", 2}, {"shape", json::array()}, {"hex", "0000000000002440"}}}}};
  const json base_entry = {{"shape_index", 0},
                           {"attrs", AttrsDigest(kernel_case)},
                           {"inputs", InputsDigest(kernel_case)},
                           {"cpu", half("0049")},  // 10
                           {"float64", wide}};     // 10
  json overlay_entry = base_entry;
  overlay_entry.erase("float64");
  overlay_entry["cpu"] = half("4048");  // 8.5: summed in half
  Write("Sum", {{"op", "Sum"}, {"cells", {{"half", {base_entry}}}}});
  Write("Sum", {{"op", "Sum"}, {"cells", {{"half", {overlay_entry}}}}}, "2.15.1");

  const RecordedCase found = RecordedOp(dir_.string(), "Sum", "2.15.1").Find(kernel_case);
  ASSERT_EQ(found.kind, RecordedCase::Kind::kResult) << found.reason;
  EXPECT_EQ(found.cpu, half("4048"));
  EXPECT_EQ(found.float64, wide);  // the record's, under the overlay
  json expectations = RecordedExpectations(kernel_case, kernel_case, found);
  EXPECT_EQ(expectations["float64"]["outputs"][0]["hex"], "0049");  // rounded to half
  EXPECT_EQ(expectations["float64"]["outputs"][0]["dtype"], 19);

  const auto judge = [&](const std::string& plugin_hex) {
    json entry = expectations;
    entry["id"] = kernel_case["id"];
    entry["shape_index"] = 0;
    entry["plugin"] = half(plugin_hex);
    const CpuOracleJudgement judgement = JudgeGeneratedCells(
        {{"cases", {kernel_case}}}, json::array({entry}), {"here", "2.15.1's CPU"});
    EXPECT_EQ(judgement.generated.size(), 1u);
    return judgement.generated.empty() ? CheckResult{} : judgement.generated.front();
  };
  const CheckResult summed_in_float = judge("0049");
  EXPECT_EQ(summed_in_float.outcome, Outcome::kPass) << summed_in_float.message;
  EXPECT_NE(summed_in_float.message.find("1 of them agrees with the case run in float64 instead"),
            std::string::npos)
      << summed_in_float.message;
  const CheckResult summed_in_half = judge("4048");
  EXPECT_EQ(summed_in_half.outcome, Outcome::kPass) << summed_in_half.message;
  EXPECT_EQ(summed_in_half.message.find("float64"), std::string::npos) << summed_in_half.message;
  const CheckResult wrong = judge("004a");  // 12
  EXPECT_EQ(wrong.outcome, Outcome::kFail) << wrong.message;
  EXPECT_NE(wrong.message.find("nor does it agree with the same case run in float64"),
            std::string::npos)
      << wrong.message;

  // Without the float64 run (an op whose sums are not judged so), only the CPU's value agrees.
  expectations.erase("float64");
  EXPECT_EQ(judge("0049").outcome, Outcome::kFail);
}

TEST(CaseFromJsonTest, MakesTheCaseWithDefaultsAndOutputDtypes) {
  const ops::OpDef* def = ops::FindOpRegistry(kRecordedRelease)->Find("LeakyRelu");
  ASSERT_NE(def, nullptr);
  const json kernel_case = {
      {"op", "LeakyRelu"},
      {"attrs", {{"T", {{"type", 19}}}}},
      {"inputs", {{{"name", "features"}, {"dtype", "half"}, {"shape", {2}}, {"hex", "003c00bc"}}}},
      {"outputs", {{{"name", "activations"}}}}};
  auto made = CaseFromJson(kernel_case, *def);
  ASSERT_TRUE(std::holds_alternative<CaseSpec>(made)) << std::get<std::string>(made);
  const CaseSpec& spec = std::get<CaseSpec>(made);
  EXPECT_EQ(std::get<TF_DataType>(spec.attrs.at("T")), TF_HALF);
  EXPECT_FLOAT_EQ(std::get<float>(spec.attrs.at("alpha")), 0.2f);  // the definition's default
  ASSERT_EQ(spec.inputs.size(), 1u);
  EXPECT_EQ(spec.inputs[0].value.bytes, (std::vector<std::uint8_t>{0x00, 0x3c, 0x00, 0xbc}));
  ASSERT_EQ(spec.outputs.size(), 1u);
  EXPECT_EQ(spec.outputs[0].dtype, TF_HALF);

  json unknown = kernel_case;
  unknown["attrs"]["alpha"] = {{"func", "f"}};
  EXPECT_TRUE(std::holds_alternative<std::string>(CaseFromJson(unknown, *def)));
}

}  // namespace
}  // namespace conformance::kernels
