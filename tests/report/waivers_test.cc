// The waivers file: format, and errors that point at file, line, column and key.
#include "run/waivers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "model/outcome.h"
#include "run/did_you_mean.h"
#include "run/waiver_baseline.h"

namespace conformance {
namespace {

WaiverFileError ParseError(std::string_view yaml) {
  try {
    ParseWaivers(yaml, "waivers.yaml");
  } catch (const WaiverFileError& error) {
    return error;
  }
  ADD_FAILURE() << "expected WaiverFileError for:\n" << yaml;
  return WaiverFileError("", 0, 0, "", "");
}

TEST(DidYouMeanTest, EditDistance) {
  EXPECT_EQ(EditDistance("reason", "reason"), 0u);
  EXPECT_EQ(EditDistance("reson", "reason"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(ClosestMatch("reasno", {"id", "reason"}), "reason");
  EXPECT_EQ(ClosestMatch("xy", {"id", "reason"}), std::nullopt);
}

TEST(WaiversTest, ParsesEntriesWithOptionalFields) {
  const auto waivers = ParseWaivers(R"(# known issues
- id: runtime.memcpy.*
  reason: DMA engine bug (ticket 12)
- id: load.se.platform.name_regex
  reason: "rename pending"
  profile: tf2.1?
  until: 2026-12-31
)",
                                    "w.yaml");
  ASSERT_EQ(waivers.size(), 2u);
  EXPECT_EQ(waivers[0].id, "runtime.memcpy.*");
  EXPECT_EQ(waivers[0].reason, "DMA engine bug (ticket 12)");
  EXPECT_EQ(waivers[0].profile, "");
  EXPECT_FALSE(waivers[0].until.has_value());
  EXPECT_EQ(waivers[0].source, "w.yaml:2:3");
  EXPECT_EQ(waivers[1].profile, "tf2.1?");
  ASSERT_TRUE(waivers[1].until.has_value());
  EXPECT_EQ(*waivers[1].until,
            std::chrono::year_month_day(std::chrono::year(2026), std::chrono::December,
                                        std::chrono::day(31)));
}

TEST(WaiversTest, EmptyFileWaivesNothing) {
  EXPECT_TRUE(ParseWaivers("", "w.yaml").empty());
  EXPECT_TRUE(ParseWaivers("# nothing waived\n", "w.yaml").empty());
}

TEST(WaiversTest, UnknownKeyNamesLineColumnKeyAndSuggestion) {
  const WaiverFileError error = ParseError("- id: load.*\n  reson: typo\n");
  EXPECT_EQ(error.file(), "waivers.yaml");
  EXPECT_EQ(error.line(), 2);
  EXPECT_EQ(error.column(), 3);
  EXPECT_EQ(error.key(), "reson");
  const std::string message = error.what();
  EXPECT_NE(message.find("waivers.yaml:2:3:"), std::string::npos) << message;
  EXPECT_NE(message.find("unknown key 'reson'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'reason'?"), std::string::npos) << message;
}

TEST(WaiversTest, UnknownKeyWithoutCloseMatchHasNoSuggestion) {
  const WaiverFileError error = ParseError("- id: a\n  reason: b\n  ticket: 7\n");
  EXPECT_EQ(error.key(), "ticket");
  EXPECT_EQ(std::string(error.what()).find("did you mean"), std::string::npos);
}

TEST(WaiversTest, MissingReasonIsAnError) {
  const WaiverFileError error = ParseError("- id: a\n  reason: b\n- id: c\n");
  EXPECT_EQ(error.key(), "reason");
  EXPECT_EQ(error.line(), 3);
  EXPECT_NE(std::string(error.what()).find("waiver entry 2"), std::string::npos);
}

TEST(WaiversTest, MissingIdIsAnError) {
  EXPECT_EQ(ParseError("- reason: because\n").key(), "id");
  EXPECT_EQ(ParseError("- id: ''\n  reason: because\n").key(), "id");
}

TEST(WaiversTest, BadDateNamesUntil) {
  const WaiverFileError error = ParseError("- id: a\n  reason: b\n  until: 2026-02-30\n");
  EXPECT_EQ(error.key(), "until");
  EXPECT_EQ(error.line(), 3);
  EXPECT_EQ(error.column(), 10);
}

TEST(WaiversTest, DuplicateKeyIsAnError) {
  const WaiverFileError error = ParseError("- id: a\n  reason: b\n  id: c\n");
  EXPECT_EQ(error.key(), "id");
  EXPECT_EQ(error.line(), 3);
}

TEST(WaiversTest, NonScalarValueIsAnError) {
  EXPECT_EQ(ParseError("- id: [a, b]\n  reason: b\n").key(), "id");
}

TEST(WaiversTest, StructureErrors) {
  EXPECT_NE(std::string(ParseError("id: a\nreason: b\n").what()).find("must be a YAML list"),
            std::string::npos);
  EXPECT_NE(std::string(ParseError("- just a string\n").what()).find("waiver entry 1"),
            std::string::npos);
}

TEST(WaiversTest, SyntaxErrorHasPosition) {
  const WaiverFileError error = ParseError("- id: a\n   reason: b\n");
  EXPECT_EQ(error.line(), 2);
  EXPECT_EQ(error.column(), 10);
  EXPECT_NE(std::string(error.what()).find("invalid YAML"), std::string::npos);
}

TEST(WaiversTest, EveryErrorOfTheFileIsReportedInFileOrder) {
  const WaiverFileError error =
      ParseError("- id: a\n  resaon: x\n- id: b\n  reason: r\n  until: someday\n- reason: no id\n");
  EXPECT_EQ(error.line(), 2);  // the first error's position
  EXPECT_EQ(error.key(), "resaon");
  const std::string message = error.what();
  const std::size_t typo = message.find("waivers.yaml:2:3: waiver entry 1: unknown key 'resaon'");
  const std::size_t date =
      message.find("waivers.yaml:5:10: waiver entry 2: 'until' must be a date");
  const std::size_t id = message.find("waivers.yaml:6:3: waiver entry 3: missing or empty 'id'");
  EXPECT_NE(typo, std::string::npos) << message;
  EXPECT_NE(date, std::string::npos) << message;
  EXPECT_NE(id, std::string::npos) << message;
  EXPECT_LT(typo, date);
  EXPECT_LT(date, id);
}

TEST(WaiversTest, AProfileNoKnownProfileMatchesIsAnError) {
  const std::vector<std::string> known = {"newest", "tf2.10", "tf2.7", "tf2.5"};
  try {
    ParseWaivers("- id: a\n  reason: r\n  profile: tf2.15\n", "w.yaml", known);
    FAIL() << "expected WaiverFileError";
  } catch (const WaiverFileError& error) {
    EXPECT_EQ(error.key(), "profile");
    EXPECT_EQ(std::string(error.what()),
              "w.yaml:3:12: waiver entry 1: profile 'tf2.15' matches no profile (did you mean "
              "'tf2.10'?); known profiles: newest tf2.10 tf2.7 tf2.5");
  }
  EXPECT_EQ(ParseWaivers("- id: a\n  reason: r\n  profile: tf2.?\n", "w.yaml", known).size(), 1u);
}

TEST(WaiversTest, RootCauseEntriesNameCallbackAndProblem) {
  const auto waivers = ParseWaivers(
      "- callback: create_stream\n  problem: out-parameter never written\n  reason: r\n", "w.yaml");
  ASSERT_EQ(waivers.size(), 1u);
  EXPECT_TRUE(waivers[0].is_root_cause());
  EXPECT_FALSE(waivers[0].is_exact_id());
  EXPECT_EQ(waivers[0].callback, "create_stream");
  EXPECT_EQ(waivers[0].problem, "out-parameter never written");
  EXPECT_EQ(ParseError("- callback: create_stream\n  reason: r\n").key(), "problem");
  EXPECT_EQ(ParseError("- id: a\n  callback: c\n  problem: p\n  reason: r\n").key(), "id");
}

TEST(WaiversTest, RootCauseEntriesMayNameTheKernel) {
  const auto waivers = ParseWaivers(
      "- callback: compute_func\n  problem: wrong values\n  kernel: Relu\n  reason: r\n"
      "- callback: compute_func\n  problem: wrong values\n  reason: r\n",
      "w.yaml");
  ASSERT_EQ(waivers.size(), 2u);
  EXPECT_EQ(waivers[0].kernel, "Relu");
  EXPECT_EQ(waivers[1].kernel, "");
  // A device callback's root cause names no kernel: the entry would never match.
  const WaiverFileError device =
      ParseError("- callback: deallocate\n  problem: p\n  kernel: Relu\n  reason: r\n");
  EXPECT_EQ(device.key(), "kernel");
  EXPECT_NE(std::string(device.what()).find("'deallocate' is a device callback"), std::string::npos)
      << device.what();
  EXPECT_EQ(ParseError("- id: kernel.Relu.*\n  kernel: Relu\n  reason: r\n").key(), "kernel");
}

TEST(WaiversTest, ExactIdsAndGlobsAreTold) {
  const auto waivers = ParseWaivers("- id: a.b\n  reason: r\n- id: a.*\n  reason: r\n", "w.yaml");
  EXPECT_TRUE(waivers[0].is_exact_id());
  EXPECT_FALSE(waivers[1].is_exact_id());
}

TEST(WaiverBaselineTest, FailuresBecomeEntriesThatParseBack) {
  CheckResult failed{};
  failed.id = "runtime.memcpy.htod";
  failed.outcome = Outcome::kFail;
  failed.message = "byte 3: \"x\" # not a comment\nsecond line";
  CheckResult waived{};
  waived.id = "kernel.Relu.float";
  waived.outcome = Outcome::kWaived;
  waived.waiver_reason = "ticket: 12";
  CheckResult passed{};
  passed.id = "load.library.dlopen";
  passed.outcome = Outcome::kPass;
  const std::string text = RenderWaiverBaseline({failed, waived, passed, failed}, "p.so");
  const std::vector<Waiver> waivers = ParseWaivers(text, "baseline.yaml");
  ASSERT_EQ(waivers.size(), 2u) << text;
  EXPECT_EQ(waivers[0].id, "runtime.memcpy.htod");
  EXPECT_EQ(waivers[0].reason, kWaiverReasonPlaceholder);
  EXPECT_EQ(waivers[1].id, "kernel.Relu.float");
  EXPECT_EQ(waivers[1].reason, "ticket: 12");
  EXPECT_NE(text.find("# fail: byte 3"), std::string::npos) << text;
  EXPECT_TRUE(ParseWaivers(RenderWaiverBaseline({passed}, "p.so"), "b.yaml").empty());
}

TEST(WaiversTest, LoadFileReportsUnreadableFile) {
  try {
    LoadWaiverFile("/nonexistent/waivers.yaml");
    FAIL() << "expected WaiverFileError";
  } catch (const WaiverFileError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/waivers.yaml"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("No such file"), std::string::npos);
  }
}

TEST(WaiversTest, LoadFileNamesTheFileInErrors) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("waivers_test_bad_" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << "- id: a\n  reasn: b\n";
  try {
    LoadWaiverFile(path);
    FAIL() << "expected WaiverFileError";
  } catch (const WaiverFileError& error) {
    EXPECT_EQ(error.file(), path.string());
    EXPECT_NE(std::string(error.what()).find(path.string() + ":2:3"), std::string::npos);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace conformance
