// Vulten's kernel registrations (vulten_kernels.c: its 41 ops, 516 kernels) under the load
// tier, judged against TensorFlow's op registry of each profile's release: no op is reported
// unknown, and exactly the (op, dtype) pairs TensorFlow's registry forbids are reported as
// dtypes the op does not allow. Measured by running plugin_conformance itself.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

nlohmann::json RunLoadTier(const std::string& profile) {
  const std::string json_path = testing::TempDir() + "vulten_registrations_" + profile + "_" +
                                std::to_string(getpid()) + ".json";
  const std::string command = std::string(PLUGIN_CONFORMANCE_EXE) + " " + VULTEN_PLUGIN +
                              " --tier load --profile " + profile + " --json " + json_path +
                              " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_NE(status, -1) << command;
  std::ifstream in(json_path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(json_path);
  if (text.str().empty()) {
    ADD_FAILURE() << "no report from: " << command;
    return nullptr;
  }
  return nlohmann::json::parse(text.str());
}

const nlohmann::json* Result(const nlohmann::json& report, const std::string& id) {
  for (const auto& result : report["results"]) {
    if (result.value("id", "") == id) return &result;
  }
  return nullptr;
}

// "DivNoNan's T does not allow int32" for every pair the message names.
std::set<std::string> DisallowedPairs(const std::string& message) {
  std::set<std::string> pairs;
  const std::regex pair(R"((\w+)'s (\w+) does not allow (\w+))");
  for (auto it = std::sregex_iterator(message.begin(), message.end(), pair);
       it != std::sregex_iterator(); ++it) {
    pairs.insert((*it)[1].str() + " " + (*it)[2].str() + "=" + (*it)[3].str());
  }
  return pairs;
}

class VultenRegistrations : public testing::TestWithParam<const char*> {};

TEST_P(VultenRegistrations, OnlyTrueFindings) {
  const nlohmann::json report = RunLoadTier(GetParam());
  ASSERT_FALSE(report.is_null());
  const nlohmann::json* init = Result(report, "load.kernels.init");
  ASSERT_NE(init, nullptr);
  EXPECT_EQ((*init)["details"].value("kernels_registered", ""), "516");

  for (const char* id :
       {"load.kernels.op_exists", "load.kernels.constraint_attr", "load.kernels.host_memory",
        "load.kernels.duplicates", "load.kernels.device_type", "load.kernels.type_constraints"}) {
    const nlohmann::json* result = Result(report, id);
    ASSERT_NE(result, nullptr) << id;
    EXPECT_EQ(result->value("outcome", ""), "pass") << id << ": " << result->value("message", "");
  }

  // TensorFlow's own registry (2.15.1 and 2.21.0 alike) leaves these out of the ops' T:
  // Add has no unsigned types beyond uint8, DivNoNan no integers, Pow no unsigned integers.
  // Every other of the 516 registrations is allowed (Maximum int16, AddV2 uint64, ...).
  const std::set<std::string> forbidden_by_tensorflow = {
      "Add T=uint16",      "Add T=uint32",     "Add T=uint64",      "DivNoNan T=int8",
      "DivNoNan T=uint8",  "DivNoNan T=int16", "DivNoNan T=uint16", "DivNoNan T=int32",
      "DivNoNan T=uint32", "DivNoNan T=int64", "DivNoNan T=uint64", "Pow T=uint8",
      "Pow T=uint16",      "Pow T=uint32",     "Pow T=uint64"};
  const nlohmann::json* dtype = Result(report, "load.kernels.constraint_dtype");
  ASSERT_NE(dtype, nullptr);
  EXPECT_EQ(dtype->value("outcome", ""), "warning");
  EXPECT_EQ(DisallowedPairs(dtype->value("message", "")), forbidden_by_tensorflow);
}

INSTANTIATE_TEST_SUITE_P(Profiles, VultenRegistrations, testing::Values("newest", "tf2.10"),
                         [](const auto& info) {
                           return std::string(info.param) == "newest" ? "newest" : "tf2_10";
                         });

}  // namespace
