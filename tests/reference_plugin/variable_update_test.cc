// ResourceApplyGradientDescent on resource variables of the mock core (core/variables.h): the
// update persists in the variable's device buffer, step after step; a reader holding the old
// value keeps it (copy-on-write through the plugin's copyFunc); errors are TensorFlow's. A
// kernel that writes its update into a copy of its own fails the persistence check.
#include <cstring>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "core/recorder.h"
#include "core/variables.h"
#include "kernel_test_support.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"

namespace reference_plugin_test {
namespace {

namespace core = conformance::core;

class VariableUpdateTest : public ReferenceKernelTest {
 protected:
  void TearDown() override {
    for (const Tensor& handle : handles_) store().Destroy(handle);
    ReferenceKernelTest::TearDown();
  }
  static core::VariableStore& store() { return core::VariableStore::Default(); }

  // A variable whose value lives in the plugin's device memory.
  Tensor variable(const Tensor& host_value) {
    handles_.push_back(store().Create(runner_->to_device(host_value)));
    return handles_.back();
  }
  Tensor value_of(const Tensor& handle) {
    Tensor on_device;
    const core::Status s = store().Read(handle, &on_device);
    EXPECT_TRUE(s.ok()) << s.message;
    return runner_->to_host(on_device);
  }
  KernelCall step(const Tensor& handle, Tensor alpha, Tensor delta, TF_DataType dtype = TF_FLOAT) {
    return KernelCall{.op = "ResourceApplyGradientDescent",
                      .attrs = {{"T", dtype}},
                      .inputs = {{"var", handle}, {"alpha", alpha}, {"delta", delta}},
                      .outputs = {}};
  }

  std::vector<Tensor> handles_;
};

// The check a models tier needs: after two steps the variable holds var - 2 * alpha * delta.
::testing::AssertionResult UpdatePersists(KernelRunner& runner,
                                          const core::KernelRegistration* kernel) {
  core::VariableStore& store = core::VariableStore::Default();
  Tensor handle = store.Create(runner.to_device(floats({3}, {1, 2, 3})));
  KernelCall call{
      .op = "ResourceApplyGradientDescent",
      .attrs = {{"T", TF_FLOAT}},
      .inputs = {{"var", handle}, {"alpha", floats({}, {0.5F})}, {"delta", floats({3}, {2, 4, 6})}},
      .registration = kernel};
  for (int i = 0; i < 2; ++i) {
    KernelRun run = runner.run(call);
    if (!run.ok()) return ::testing::AssertionFailure() << "step " << i << " failed";
  }
  Tensor now;
  (void)store.Read(handle, &now);
  const std::vector<float> values = runner.to_host(now).ToVector<float>();
  store.Destroy(handle);
  if (values == std::vector<float>{-1, -2, -3}) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "the update did not persist: the variable holds " << ::testing::PrintToString(values)
         << ", expected [-1, -2, -3] after two steps";
}

TEST_F(VariableUpdateTest, TheUpdatePersistsStepAfterStep) {
  Tensor handle = variable(floats({4}, {1, 2, 3, 4}));
  KernelRun first = run(step(handle, floats({}, {0.5F}), floats({4}, {2, 2, 4, -4})));
  ASSERT_TRUE(first.ok()) << first.compute.message;
  EXPECT_EQ(value_of(handle).ToVector<float>(), (std::vector<float>{0, 1, 1, 6}));
  KernelRun second = run(step(handle, floats({}, {1}), floats({4}, {1, 1, 1, 1})));
  ASSERT_TRUE(second.ok()) << second.compute.message;
  EXPECT_EQ(value_of(handle).ToVector<float>(), (std::vector<float>{-1, 0, 0, 5}));
}

TEST_F(VariableUpdateTest, DoubleAndUseLocking) {
  Tensor handle = variable(doubles({2}, {1, 1}));
  KernelCall call = step(handle, doubles({}, {0.25}), doubles({2}, {4, -4}), TF_DOUBLE);
  call.attrs["use_locking"] = true;
  KernelRun r = run(call);
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(value_of(handle).ToVector<double>(), (std::vector<double>{0, 2}));
}

TEST_F(VariableUpdateTest, AReaderKeepsTheValueItRead) {
  Tensor handle = variable(floats({2}, {1, 2}));
  Tensor before;
  ASSERT_TRUE(store().Read(handle, &before).ok());  // a ReadVariableOp result still in use
  KernelRun r = run(step(handle, floats({}, {1}), floats({2}, {1, 1})));
  ASSERT_TRUE(r.ok()) << r.compute.message;
  EXPECT_EQ(runner_->to_host(before).ToVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(value_of(handle).ToVector<float>(), (std::vector<float>{0, 1}));
}

TEST_F(VariableUpdateTest, ShapeErrorsAreTensorFlows) {
  Tensor handle = variable(floats({2}, {1, 2}));
  KernelRun alpha = run(step(handle, floats({2}, {1, 1}), floats({2}, {1, 1})));
  EXPECT_EQ(alpha.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(alpha.compute.message, "alpha is not a scalar: [2]");
  KernelRun delta = run(step(handle, floats({}, {1}), floats({3}, {1, 1, 1})));
  EXPECT_EQ(delta.compute.code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(delta.compute.message, "var and delta do not have the same shape[2] [3]");
  EXPECT_EQ(value_of(handle).ToVector<float>(), (std::vector<float>{1, 2}));  // untouched
}

TEST_F(VariableUpdateTest, AMissingVariableFailsTheKernel) {
  Tensor handle = variable(floats({1}, {1}));
  store().Destroy(handle);
  KernelRun r = run(step(handle, floats({}, {1}), floats({1}, {1})));
  // The lock step meets the missing variable first, as in TensorFlow.
  EXPECT_EQ(r.compute.code, TF_INTERNAL);
  EXPECT_EQ(r.compute.message, "Invalid variable reference.");
}

// ---- A kernel whose update does not persist: it writes var - alpha * delta into a copy of
// its own (host memory it allocates per step), in stream order, and never into the variable.

const TestDevice* g_device = nullptr;

struct CopyUpdate {
  const float* var;
  const float* alpha;
  const float* delta;
  int64_t n;
};

void UpdateTheCopy(void* arg, TF_Status* status) {
  std::unique_ptr<CopyUpdate> work(static_cast<CopyUpdate*>(arg));
  std::vector<float> copy(work->var, work->var + work->n);
  for (int64_t i = 0; i < work->n; ++i)
    copy[static_cast<std::size_t>(i)] -= *work->alpha * work->delta[i];
  TF_SetStatus(status, TF_OK, "");
}

void ComputeIntoACopy(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* var = nullptr;
  TF_Tensor* alpha = nullptr;
  TF_Tensor* delta = nullptr;
  TF_GetInputTensorFromVariable(ctx, 0, false, false, false, nullptr, &var, status);
  TF_GetInput(ctx, 1, &alpha, status);
  TF_GetInput(ctx, 2, &delta, status);
  SP_Stream stream = TF_GetStream(ctx, status);
  auto* work =
      new CopyUpdate{static_cast<const float*>(TF_TensorData(var)),
                     static_cast<const float*>(TF_TensorData(alpha)),
                     static_cast<const float*>(TF_TensorData(delta)), TF_TensorElementCount(var)};
  g_device->se().host_callback(g_device->get(), stream, &UpdateTheCopy, work);
  TF_DeleteTensor(var);
  TF_DeleteTensor(alpha);
  TF_DeleteTensor(delta);
  TF_DeleteStatus(status);
}

TEST_F(VariableUpdateTest, TheReferenceKernelPassesThePersistenceCheck) {
  EXPECT_TRUE(UpdatePersists(*runner_, nullptr));
}

TEST_F(VariableUpdateTest, AKernelThatUpdatesACopyFailsThePersistenceCheck) {
  g_device = &device();
  core::KernelRegistration copy_kernel;
  copy_kernel.op_name = "ResourceApplyGradientDescent";
  copy_kernel.device_type = "REFDEV";
  copy_kernel.host_memory_args = {"var"};
  copy_kernel.compute_func = reinterpret_cast<void*>(&ComputeIntoACopy);
  const ::testing::AssertionResult result = UpdatePersists(*runner_, &copy_kernel);
  EXPECT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("did not persist"), std::string::npos)
      << result.message();
}

}  // namespace
}  // namespace reference_plugin_test
