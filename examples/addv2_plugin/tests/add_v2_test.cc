// Unit tests of the example's AddV2 kernel, one idea each. The kernel runs in the fake kernel
// context (mocks/kernel_test.h) on a mock device (mocks/stream_executor_mock.h): no
// TensorFlow, a few milliseconds per test.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "launcher.h"
#include "mocks/kernel_test.h"
#include "plugin.h"

namespace {

using conformance::core::Status;
using conformance::mocks::Callback;
using conformance::mocks::FakeKernelContext;
using conformance::mocks::KernelDevice;
using conformance::mocks::KernelResult;
using conformance::mocks::MockStreamExecutor;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Return;

class AddV2Test : public ::testing::Test {
 protected:
  // The kernel's stream work goes through the mock device's host_callback.
  void SetUp() override { example::SetLauncher({se_.Table(), se_.MakeDevice(0)}); }

  ::testing::NiceMock<MockStreamExecutor> se_;
  KernelDevice device_{se_, example::kDeviceType};
  FakeKernelContext add_{&TF_InitKernel, "AddV2", device_};
};

TEST_F(AddV2Test, AddsTwoVectors) {
  add_.Attr("T", TF_FLOAT).Input<float>({3}, {1, 2, 3}).Input<float>({3}, {10, 20, 30});
  KernelResult result = add_.Run();
  ASSERT_TRUE(result.ok()) << conformance::core::ToString(result.compute);
  EXPECT_EQ(result.Output<float>(0), (std::vector<float>{11, 22, 33}));
}

TEST_F(AddV2Test, BroadcastsAScalar) {
  add_.Attr("T", TF_FLOAT).Input<float>({2, 2}, {1, 2, 3, 4}).Input<float>({}, {0.5f});
  KernelResult result = add_.Run();
  EXPECT_EQ(result.OutputShape(0), (conformance::core::Shape{2, 2}));
  EXPECT_EQ(result.Output<float>(0), (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f}));
}

TEST_F(AddV2Test, BroadcastsAColumnAgainstARow) {
  add_.Attr("T", TF_FLOAT).Input<float>({2, 1}, {10, 20}).Input<float>({3}, {1, 2, 3});
  KernelResult result = add_.Run();
  EXPECT_EQ(result.OutputShape(0), (conformance::core::Shape{2, 3}));
  EXPECT_EQ(result.Output<float>(0), (std::vector<float>{11, 12, 13, 21, 22, 23}));
}

TEST_F(AddV2Test, RejectsIncompatibleShapes) {
  add_.Attr("T", TF_FLOAT).Input<float>({2}, {1, 2}).Input<float>({3}, {1, 2, 3});
  KernelResult result = add_.Run();
  EXPECT_EQ(result.compute, Status::Error(TF_INVALID_ARGUMENT, "Incompatible shapes: [2] vs. [3]"));
}

TEST_F(AddV2Test, AllocatesTheOutputWithTheResultShape) {
  EXPECT_CALL(add_.api(), AllocateOutput(0, ElementsAre(2, 2)));
  add_.Attr("T", TF_FLOAT).Input<float>({}, {1}).Input<float>({2, 2}, {1, 2, 3, 4}).Run();
}

TEST_F(AddV2Test, ReportsAFailedOutputAllocation) {
  EXPECT_CALL(add_.api(), AllocateOutput(0, _))
      .WillOnce(Return(Status::Error(TF_RESOURCE_EXHAUSTED, "full")));
  KernelResult result =
      add_.Attr("T", TF_FLOAT).Input<float>({1}, {1}).Input<float>({1}, {2}).Run();
  EXPECT_EQ(result.compute, Status::Error(TF_RESOURCE_EXHAUSTED, "full"));
}

TEST_F(AddV2Test, ComputesOnTheKernelsStream) {
  EXPECT_CALL(add_.api(), GetStream());
  EXPECT_CALL(se_, HostCallback(_, device_.stream(), _, _));  // the default action still runs
  EXPECT_TRUE(add_.Attr("T", TF_FLOAT).Input<float>({1}, {1}).Input<float>({1}, {2}).Run().ok());
}

TEST_F(AddV2Test, DeletesEveryTensorItGets) {
  KernelResult result =
      add_.Attr("T", TF_FLOAT).Input<float>({4}, {1, 2, 3, 4}).Input<float>({}, {1}).Run();
  EXPECT_EQ(result.leaked_tensors, 0);
  EXPECT_EQ(result.leaked_statuses, 0);
}

TEST_F(AddV2Test, ReportsADeviceThatCannotQueueWork) {
  se_.ReturnError(Callback::kHostCallback, TF_INTERNAL,
                  "queue full");  // host_callback returns false
  KernelResult result =
      add_.Attr("T", TF_FLOAT).Input<float>({1}, {1}).Input<float>({1}, {2}).Run();
  EXPECT_EQ(result.compute.code, TF_INTERNAL);
  EXPECT_EQ(result.leaked_tensors, 0) << "the tensors must be released on the error path too";
}

TEST_F(AddV2Test, ReportsDeviceMemoryExhaustion) {
  se_.FailAllocation(3);  // the two inputs fit, the output does not
  KernelResult result =
      add_.Attr("T", TF_FLOAT).Input<float>({1}, {1}).Input<float>({1}, {2}).Run();
  EXPECT_EQ(result.compute.code, TF_RESOURCE_EXHAUSTED);
}

// Speed belongs in a benchmark, not in a timed unit test (a loaded CI machine fails it): what a
// unit test can hold is that running the kernel many times leaks nothing.
TEST_F(AddV2Test, RepeatedRunsLeakNothing) {
  constexpr int kRuns = 50;
  for (int i = 0; i < kRuns; ++i) {
    FakeKernelContext add(&TF_InitKernel, "AddV2", device_);
    KernelResult result = add.Attr("T", TF_FLOAT)
                              .Input<float>({64}, std::vector<float>(64, 1))
                              .Input<float>({}, {1})
                              .Run();
    ASSERT_TRUE(result.ok()) << "run " << i;
    ASSERT_EQ(result.leaked_tensors, 0) << "run " << i;
  }
}

}  // namespace
