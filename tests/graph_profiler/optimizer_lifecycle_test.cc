// load.graph.optimizer.lifecycle on hand-written callbacks: a NULL destroy_func fails only when
// create_func hands out a new object per call (TensorFlow then leaks one per graph
// optimization); a shared or NULL instance is legal, and a lone destroy_func is a warning.
#include "validate/optimizer_lifecycle.h"

#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

#include "../support/collecting_sink.h"

namespace conformance::validate {
namespace {

using test_support::CollectingSink;

int g_shared_state = 0;
std::vector<void*> g_fresh;

void* CreateShared() { return &g_shared_state; }
void* CreateNull() { return nullptr; }
void* CreateFresh() {
  g_fresh.push_back(std::malloc(16));
  return g_fresh.back();
}
void Destroy(void* /*instance*/) {}

CheckResult Judge(void* (*create)(), void (*destroy)(void*)) {
  CollectingSink sink;
  CheckLog log(sink, {"load.graph.optimizer.lifecycle"});
  JudgeOptimizerLifecycle(log, create, destroy);
  EXPECT_EQ(sink.results.size(), 1u);
  return sink.results.empty() ? CheckResult{} : sink.results.front();
}

TEST(OptimizerLifecycle, FreshInstancesWithoutDestroyFuncLeak) {
  const CheckResult result = Judge(&CreateFresh, nullptr);
  EXPECT_EQ(result.outcome, Outcome::kFail);
  EXPECT_EQ(result.details.at("failing_call"), "TP_Optimizer.destroy_func");
  EXPECT_EQ(result.details.at("distinct_instances"), "4");
  EXPECT_NE(result.message.find("leaks one"), std::string::npos) << result.message;
  for (void* instance : g_fresh) std::free(instance);
  g_fresh.clear();
}

TEST(OptimizerLifecycle, SharedOrNullInstanceWithoutDestroyFuncLeaksNothing) {
  // mock_plugin/optimizer_null_destroy_func's create_func returns one handle: TensorFlow 2.21.0
  // and 2.15.1 ran it correctly.
  EXPECT_EQ(Judge(&CreateShared, nullptr).outcome, Outcome::kPass);
  EXPECT_EQ(Judge(&CreateNull, nullptr).outcome, Outcome::kPass);
}

TEST(OptimizerLifecycle, DestroyFuncWithoutCreateFuncMustAcceptNull) {
  const CheckResult result = Judge(nullptr, &Destroy);
  EXPECT_EQ(result.outcome, Outcome::kWarning);
  EXPECT_NE(result.message.find("NULL"), std::string::npos) << result.message;
}

TEST(OptimizerLifecycle, BothOrNeitherPass) {
  EXPECT_EQ(Judge(&CreateFresh, &Destroy).outcome, Outcome::kPass);
  EXPECT_EQ(Judge(nullptr, nullptr).outcome, Outcome::kPass);
  for (void* instance : g_fresh) std::free(instance);
  g_fresh.clear();
}

}  // namespace
}  // namespace conformance::validate
