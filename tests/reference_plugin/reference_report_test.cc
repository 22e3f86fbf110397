// The reference plugin is the oracle vendors copy: on the default tiers it must be CONFORMANT
// with no fail, no not_supported (every module it has is exercised) except the optimizer models
// no plugin can run under 2.21's core (model.mlp_sgd_step.*,
// model.mlp_sgd_two_steps_per_execution.*) and the NextPluggableDevice checks (load.npd.*: it
// exports no TFNPD_InitPlugin, which without a PJRT client would register no device and earn a
// warning), and no warning. Run the way a vendor runs the tool: plugin_conformance <plugin> --json.
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
  // The one exception: the optimizer models and ResourceApplyGradientDescent's kernel checks need
  // the variable C API, which the default core (TensorFlow 2.21) exports to no plugin; they say
  // so instead of running.
  const std::string optimizer_op = "kernel.ResourceApplyGradientDescent.";
  std::set<std::string> optimizer_model;
  for (const char* model :
       {"model.mlp_sgd_step.float", "model.mlp_sgd_two_steps_per_execution.float"}) {
    for (const char* check : {"", ".deterministic", ".no_leaks", ".sequential_oracle"})
      optimizer_model.insert(std::string(model) + check);
  }
  int optimizer_op_checks = 0;
  for (const auto& result : report.at("results"))
    optimizer_op_checks += result.at("id").get<std::string>().starts_with(optimizer_op);
  // 12 case checks (float and double), 10 properties, and the float and double cells of the
  // recorded oracle's variable family (specs/ops/families/variable_updates.yaml).
  EXPECT_EQ(optimizer_op_checks, 24);
  int npd_checks = 0;
  for (const auto& result : report.at("results")) {
    if (!result.at("id").get<std::string>().starts_with("load.npd.")) continue;
    ++npd_checks;
    EXPECT_EQ(result.at("outcome"), "not_supported") << result.at("id");
    EXPECT_EQ(result.value("message", ""), "the plugin does not export TFNPD_InitPlugin");
  }
  EXPECT_EQ(npd_checks, 6);
  EXPECT_EQ(counts.at("not_supported").get<int>(),
            static_cast<int>(optimizer_model.size()) + optimizer_op_checks + npd_checks);
  for (const char* bad : {"fail", "crash", "timeout", "skipped", "unexpected_pass"}) {
    EXPECT_EQ(counts.at(bad).get<int>(), 0) << bad;
  }
  std::set<std::string> not_passing;
  for (const auto& result : report.at("results")) {
    const std::string id = result.at("id");
    if (result.at("outcome") == "pass") continue;
    if (optimizer_model.contains(id) || id.starts_with(optimizer_op)) {
      EXPECT_EQ(result.at("outcome"), "not_supported") << id;
      EXPECT_NE(result.value("message", "")
                    .find("TensorFlow 2.21 (profile newest) exports no resource-variable C API"),
                std::string::npos)
          << id;
      continue;
    }
    if (id.starts_with("load.npd.")) continue;  // not_supported, above
    not_passing.insert(id);
  }
  EXPECT_EQ(not_passing, std::set<std::string>{});
  EXPECT_EQ(counts.at("warning").get<int>(), 0);
  EXPECT_GT(counts.at("pass").get<int>(), 500);
}

}  // namespace
