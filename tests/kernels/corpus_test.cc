// The malformed kernel scenario corpus: one file per class of mistake a vendor makes against
// the op definition or the language (unknown op, input names, attrs, dtypes, tolerances,
// shapes), each ending with the exact messages it must produce ("# expect: ..." lines, at the
// end so they do not move the line numbers the messages point at).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/kernel_parser.h"

namespace conformance::kernels {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> CorpusFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(KERNEL_CORPUS_DIR)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class KernelCorpus : public ::testing::TestWithParam<fs::path> {};

TEST_P(KernelCorpus, ProducesExactlyThePinnedMessages) {
  std::ifstream in(GetParam());
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> expected;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# expect: ")) expected.push_back(line.substr(10));
  }
  const std::string label = GetParam().filename().string();
  scenario::ErrorList errors(label);
  const KernelScenarioFile file = ParseKernelScenarioText(text.str(), label, errors);
  std::vector<std::string> actual;
  for (const scenario::ScenarioError& error : errors.errors()) actual.push_back(error.ToString());
  std::string paste;
  for (const std::string& message : actual) paste += "# expect: " + message + "\n";
  ASSERT_FALSE(expected.empty()) << GetParam() << " pins no message; it produces:\n" << paste;
  EXPECT_EQ(actual, expected) << "actual messages, ready to paste:\n" << paste;
  EXPECT_TRUE(file.scenarios.empty()) << "a scenario with a problem must be left out";
}

INSTANTIATE_TEST_SUITE_P(Files, KernelCorpus, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace conformance::kernels
