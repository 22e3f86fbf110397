// The graph-optimizer and profiler mocks: registration fills the core's structs, the C
// callbacks reach the mock, and the defaults behave (graph unchanged, empty XSpace).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "mocks/graph_profiler_mock.h"

namespace conformance::mocks {
namespace {

using ::testing::_;
using ::testing::NiceMock;

TEST(MockOptimizer, RegistersAndReturnsTheGraphUnchanged) {
  NiceMock<MockOptimizer> mock;
  TP_OptimizerConfigs configs{};
  TP_Optimizer optimizer{};
  TP_OptimizerRegistrationParams params{};
  params.optimizer_configs = &configs;
  params.optimizer = &optimizer;
  TF_Status* status = TF_NewStatus();
  mock.InitGraph(&params, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK);
  EXPECT_STREQ(params.device_type, "MOCK_DEVICE");
  EXPECT_EQ(optimizer.struct_size, TP_OPTIMIZER_STRUCT_SIZE);

  EXPECT_CALL(mock, Optimize(_, _, _, _, _));  // the default action still runs
  void* instance = optimizer.create_func();
  const std::string graph = "serialized GraphDef";
  TF_Buffer in{graph.data(), graph.size(), nullptr};
  TF_Buffer out{nullptr, 0, nullptr};
  optimizer.optimize_func(instance, &in, nullptr, &out, status);
  EXPECT_EQ(TF_GetCode(status), TF_OK);
  EXPECT_EQ(std::string(static_cast<const char*>(out.data), out.length), graph);
  out.data_deallocator(const_cast<void*>(out.data), out.length);
  optimizer.destroy_func(instance);
  TF_DeleteStatus(status);
}

TEST(MockProfiler, RegistersAndCollectsAnEmptyXSpace) {
  NiceMock<MockProfiler> mock;
  TP_Profiler profiler{};
  TP_ProfilerFns fns{};
  TF_ProfilerRegistrationParams params{};
  params.profiler = &profiler;
  params.profiler_fns = &fns;
  TF_Status* status = TF_NewStatus();
  mock.InitProfiler(&params, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK);
  EXPECT_STREQ(profiler.device_type, "MOCK_DEVICE");

  EXPECT_CALL(mock, Start(&profiler, _));
  fns.start(&profiler, status);
  size_t size = 123;
  fns.collect_data_xspace(&profiler, nullptr, &size, status);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(TF_GetCode(status), TF_OK);
  params.destroy_profiler(&profiler);
  params.destroy_profiler_fns(&fns);
  TF_DeleteStatus(status);
}

TEST(MockProfiler, ReturnsAnInjectedError) {
  NiceMock<MockProfiler> mock;
  mock.faults().SetError("stop", {TF_UNAVAILABLE, "tracer busy"});
  TP_Profiler profiler{};
  TP_ProfilerFns fns{};
  TF_ProfilerRegistrationParams params{};
  params.profiler = &profiler;
  params.profiler_fns = &fns;
  TF_Status* status = TF_NewStatus();
  mock.InitProfiler(&params, status);
  fns.stop(&profiler, status);
  EXPECT_EQ(TF_GetCode(status), TF_UNAVAILABLE);
  EXPECT_STREQ(TF_Message(status), "tracer busy");
  TF_DeleteStatus(status);
}

}  // namespace
}  // namespace conformance::mocks
