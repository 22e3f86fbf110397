// runtime/tensorflow_calls.h's list of calls prerequisite paths may use is the list that
// docs/tensorflow/calls.md says real TensorFlow made (its "may rely on" paragraph), plus the
// teardown calls: adding a call to the code's list without evidence from the recording fails.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "runtime/tensorflow_calls.h"

namespace {

// The backquoted names of the paragraph that starts "So a check that other checks depend on".
std::set<std::string> RecordedPrerequisiteCalls() {
  std::ifstream in(CALLS_MD);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  const auto start = all.find("So a check that other checks depend on may rely on:");
  if (start == std::string::npos) return {};
  const auto end = all.find("\n\n", start);
  const std::string paragraph = all.substr(start, end - start);
  std::set<std::string> names;
  const std::regex quoted("`([A-Za-z_]+)`");
  for (auto it = std::sregex_iterator(paragraph.begin(), paragraph.end(), quoted);
       it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1].str());
  }
  return names;
}

TEST(TensorFlowCalls, PrerequisiteCallsAreTheRecordedOnesPlusTeardown) {
  const std::set<std::string> recorded = RecordedPrerequisiteCalls();
  ASSERT_FALSE(recorded.empty()) << "no 'may rely on' paragraph in " << CALLS_MD;
  const std::set<std::string> teardown = {"deallocate", "host_memory_deallocate", "destroy_stream",
                                          "destroy_event"};
  for (std::string_view call : conformance::runtime::kCallsPrerequisitesUse) {
    const std::string name(call);
    EXPECT_TRUE(recorded.contains(name) || teardown.contains(name))
        << name << " is used by prerequisite paths but docs/tensorflow/calls.md does not list it";
  }
  for (const char* never : {"host_callback", "block_host_until_done", "block_host_for_event",
                            "wait_for_event", "mem_zero", "memset", "memset32"}) {
    EXPECT_FALSE(conformance::runtime::PrerequisitesMayUse(never)) << never;
    EXPECT_TRUE(conformance::runtime::TensorFlowMakes(never)) << never;
  }
}

}  // namespace
