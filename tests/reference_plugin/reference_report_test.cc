// The reference plugin is the oracle vendors copy: on the default tiers it must be CONFORMANT
// with no fail, no not_supported (every module it has is exercised), and exactly the one
// warning its design earns (load.npd.pjrt_entry: no PJRT client, so TensorFlow registers no
// NextPluggableDevice). Run the way a vendor runs the tool: plugin_conformance <plugin> --json.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

std::string Shell(const std::string& text) { return "'" + text + "'"; }

TEST(ReferenceReport, ConformantWithZeroNotSupportedOnTheDefaultTiers) {
  const std::string json = (std::filesystem::temp_directory_path() /
                            ("reference_report_" + std::to_string(getpid()) + ".json"))
                               .string();
  const std::string command = Shell(PLUGIN_CONFORMANCE) + " " + Shell(REFERENCE_PLUGIN) +
                              " --seed 11 --json " + Shell(json) + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;
  EXPECT_EQ(WEXITSTATUS(status), 0) << command;
  std::ifstream in(json);
  ASSERT_TRUE(in) << json;
  const nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);

  EXPECT_TRUE(report.at("conformant").get<bool>());
  const auto& counts = report.at("counts");
  EXPECT_EQ(counts.at("not_supported").get<int>(), 0);
  for (const char* bad : {"fail", "crash", "timeout", "skipped", "unexpected_pass"}) {
    EXPECT_EQ(counts.at(bad).get<int>(), 0) << bad;
  }
  std::set<std::string> not_passing;
  for (const auto& result : report.at("results")) {
    if (result.at("outcome") != "pass") not_passing.insert(result.at("id").get<std::string>());
  }
  EXPECT_EQ(not_passing, (std::set<std::string>{"load.npd.pjrt_entry"}));
  EXPECT_GT(counts.at("pass").get<int>(), 500);
}

}  // namespace
