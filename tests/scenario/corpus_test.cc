// The malformed-file corpus: one bad scenario file per class of error, each ending with the
// exact messages it must produce ("# expect: ..." lines, at the end so they do not move the
// line numbers the messages point at). Pins the wording users see.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/scenario_set.h"

namespace conformance::scenario {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> CorpusFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(SCENARIO_CORPUS_DIR)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Corpus : public ::testing::TestWithParam<fs::path> {};

TEST_P(Corpus, ProducesExactlyThePinnedMessages) {
  std::ifstream in(GetParam());
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> expected;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("# expect: ")) expected.push_back(line.substr(10));
  }
  ErrorList errors(GetParam().filename().string());
  const auto loaded = LoadScenarioText(text.str(), GetParam().filename().string(), errors);
  std::vector<std::string> actual;
  for (const ScenarioError& error : errors.errors()) actual.push_back(error.ToString());
  std::string paste;
  for (const std::string& message : actual) paste += "# expect: " + message + "\n";
  ASSERT_FALSE(expected.empty()) << GetParam() << " pins no message; it produces:\n" << paste;
  EXPECT_EQ(actual, expected) << "actual messages, ready to paste:\n" << paste;
  (void)loaded;  // a file may hold good scenarios next to the bad one; the errors are what matter
}

INSTANTIATE_TEST_SUITE_P(Files, Corpus, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace conformance::scenario
