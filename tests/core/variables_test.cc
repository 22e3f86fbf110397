// Resource variables in the mock core (core/variables.h, variables_api.cc): the store the
// harness creates and reads variables in, and the kernel C API over it with TensorFlow's
// semantics (updates in place unless a reader shares the buffer, then copy-on-write through the
// plugin's copyFunc; lookups that fail land on the kernel context; locks taken once each).
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "core/variables.h"
#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"

namespace conformance::core {
namespace {

int copies = 0;
void CopyFloats(TF_OpKernelContext*, TF_Tensor* source, TF_Tensor* dest) {
  ++copies;
  std::memcpy(TF_TensorData(dest), TF_TensorData(source), TF_TensorByteSize(source));
}
// Op 0: dest += value; op 1: dest -= value.
void UpdateFloats(TF_OpKernelContext*, TF_Tensor* dest, TF_Tensor* value, int op) {
  auto* d = static_cast<float*>(TF_TensorData(dest));
  const auto* v = static_cast<const float*>(TF_TensorData(value));
  for (int64_t i = 0; i < TF_TensorElementCount(dest); ++i) d[i] += op == 0 ? v[i] : -v[i];
}

class VariablesTest : public testing::RecorderTest {
 protected:
  void SetUp() override {
    RecorderTest::SetUp();
    copies = 0;
  }
  void TearDown() override {
    for (const Tensor& h : handles_) store().Destroy(h);
    RecorderTest::TearDown();
  }
  static VariableStore& store() { return VariableStore::Default(); }
  Tensor NewVariable(const std::vector<float>& values) {
    handles_.push_back(store().Create(
        Tensor::FromVector<float>(TF_FLOAT, {static_cast<int64_t>(values.size())}, values)));
    return handles_.back();
  }
  std::vector<float> ValueOf(const Tensor& handle) {
    Tensor value;
    Status s = store().Read(handle, &value);
    EXPECT_TRUE(s.ok()) << ToString(s);
    return value.ToVector<float>();
  }
  std::vector<Tensor> handles_;
};

TEST_F(VariablesTest, TheStoreCreatesReadsAssignsAndDestroys) {
  Tensor handle = NewVariable({1, 2});
  EXPECT_EQ(handle.dtype(), TF_RESOURCE);
  EXPECT_EQ(handle.dims(), 0);
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{1, 2}));
  ASSERT_TRUE(store().Assign(handle, Tensor::FromVector<float>(TF_FLOAT, {2}, {5, 6})).ok());
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{5, 6}));

  Tensor uninitialized = store().CreateUninitialized(TF_FLOAT);
  handles_.push_back(uninitialized);
  Tensor value;
  EXPECT_EQ(store().Read(uninitialized, &value).code, TF_FAILED_PRECONDITION);

  store().Destroy(handle);
  Status gone = store().Read(handle, &value);
  EXPECT_EQ(gone.code, TF_NOT_FOUND);
  EXPECT_NE(gone.message.find("does not exist"), std::string::npos) << gone.message;
  EXPECT_EQ(store().Read(Tensor::Scalar<float>(TF_FLOAT, 1), &value).code, TF_INVALID_ARGUMENT);
}

TEST_F(VariablesTest, AnUnsharedVariableIsHandedOutInPlace) {
  Tensor handle = NewVariable({1, 2, 3});
  KernelContext ctx;
  ctx.AddInput(handle, {.host_memory = true});
  TF_Status* status = TF_NewStatus();
  TF_Tensor* var = nullptr;
  TF_GetInputTensorFromVariable(ctx.c_handle(), 0, false, false, false, CopyFloats, &var, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  static_cast<float*>(TF_TensorData(var))[1] = 20;  // what an in-place update does
  TF_DeleteTensor(var);
  EXPECT_EQ(copies, 0);
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{1, 20, 3}));
  TF_DeleteStatus(status);
}

TEST_F(VariablesTest, ASharedBufferIsCopiedBeforeTheUpdateAndTheReaderKeepsTheOldValue) {
  Tensor handle = NewVariable({1, 2, 3});
  Tensor reader;
  ASSERT_TRUE(store().Read(handle, &reader).ok());  // a ReadVariableOp result still alive
  KernelContext ctx;
  ctx.AddInput(handle, {.host_memory = true});
  TF_Status* status = TF_NewStatus();
  TF_Tensor* var = nullptr;
  TF_GetInputTensorFromVariable(ctx.c_handle(), 0, false, false, false, CopyFloats, &var, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  EXPECT_EQ(copies, 1);
  EXPECT_NE(TF_TensorData(var), reader.data());
  static_cast<float*>(TF_TensorData(var))[0] = 10;
  TF_DeleteTensor(var);
  EXPECT_EQ(reader.ToVector<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{10, 2, 3}));
  EXPECT_EQ(LiveDelta().tensors, 0);  // the handles lent to copyFunc are not the plugin's
  TF_DeleteStatus(status);
}

TEST_F(VariablesTest, AssignUpdateAppliesTheUpdateToTheVariable) {
  Tensor handle = NewVariable({1, 2});
  KernelContext ctx;
  ctx.AddInput(handle, {.host_memory = true});
  ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {2}, {0.5F, 0.25F}));
  TF_Status* status = TF_NewStatus();
  TF_AssignUpdateVariable(ctx.c_handle(), 0, 1, 1, 0, CopyFloats, UpdateFloats, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  EXPECT_TRUE(ctx.status().ok());
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{0.5F, 1.75F}));

  KernelContext wrong;
  wrong.AddInput(handle, {.host_memory = true});
  wrong.AddInput(Tensor::FromVector<float>(TF_FLOAT, {3}, {1, 1, 1}));
  TF_AssignUpdateVariable(wrong.c_handle(), 0, 1, 0, 0, CopyFloats, UpdateFloats, status);
  EXPECT_EQ(wrong.status().code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(wrong.status().message,
            "Cannot update variable with shape [2] using a Tensor with shape [3], shapes must be "
            "equal.");
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{0.5F, 1.75F}));
  TF_DeleteStatus(status);
}

TEST_F(VariablesTest, AssignInitializesAndValidatesTheShape) {
  Tensor handle = store().CreateUninitialized(TF_FLOAT);
  handles_.push_back(handle);
  TF_Status* status = TF_NewStatus();
  KernelContext ctx;
  ctx.AddInput(handle, {.host_memory = true});
  ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {2}, {3, 4}));
  TF_AssignVariable(ctx.c_handle(), 0, 1, true, CopyFloats, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  EXPECT_EQ(ValueOf(handle), (std::vector<float>{3, 4}));

  KernelContext wrong;
  wrong.AddInput(handle, {.host_memory = true});
  wrong.AddInput(Tensor::FromVector<float>(TF_FLOAT, {1}, {9}));
  TF_AssignVariable(wrong.c_handle(), 0, 1, true, CopyFloats, status);
  EXPECT_EQ(wrong.status().code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(wrong.status().message,
            "Trying to assign to variable with tensor with wrong shape. Expected [2] got [1]");
  TF_DeleteStatus(status);
}

TEST_F(VariablesTest, AFailedLookupFailsTheKernelContextNotTheStatus) {
  Tensor handle = NewVariable({1});
  store().Destroy(handle);
  KernelContext ctx;
  ctx.AddInput(handle, {.host_memory = true});
  TF_Status* status = TF_NewStatus();
  TF_Tensor* var = nullptr;
  TF_GetInputTensorFromVariable(ctx.c_handle(), 0, false, false, false, CopyFloats, &var, status);
  EXPECT_EQ(TF_GetCode(status), TF_OK);  // TensorFlow's OP_REQUIRES_OK leaves it alone
  EXPECT_EQ(var, nullptr);
  EXPECT_EQ(ctx.status().code, TF_NOT_FOUND);
  TF_DeleteStatus(status);
}

TEST_F(VariablesTest, LocksAreTakenOnceEachAndReleased) {
  Tensor a = NewVariable({1});
  Tensor b = NewVariable({2});
  KernelContext ctx;
  ctx.AddInput(b, {.host_memory = true});
  ctx.AddInput(a, {.host_memory = true});
  ctx.AddInput(b, {.host_memory = true});  // the same variable twice: locked once, no deadlock
  const int inputs[] = {0, 1, 2};
  TF_Status* status = TF_NewStatus();
  TF_VariableInputLockHolder* holder = nullptr;
  TF_MaybeLockVariableInputMutexesInOrder(ctx.c_handle(), true, false, inputs, 3, CopyFloats,
                                          &holder, status);
  ASSERT_EQ(TF_GetCode(status), TF_OK) << TF_Message(status);
  ASSERT_NE(holder, nullptr);
  std::shared_ptr<Variable> variable;
  ASSERT_TRUE(store().Lookup(a, &variable).ok());
  EXPECT_FALSE(variable->mu.try_lock_shared());  // held exclusively (use_locking)
  TF_ReleaseVariableInputLockHolder(holder);
  EXPECT_TRUE(variable->mu.try_lock());
  variable->mu.unlock();

  // Without use_locking the locks are shared: readers still get in.
  TF_MaybeLockVariableInputMutexesInOrder(ctx.c_handle(), false, false, inputs, 3, CopyFloats,
                                          &holder, status);
  EXPECT_TRUE(variable->mu.try_lock_shared());
  variable->mu.unlock_shared();
  TF_ReleaseVariableInputLockHolder(holder);

  store().Destroy(a);
  TF_MaybeLockVariableInputMutexesInOrder(ctx.c_handle(), true, false, inputs, 3, CopyFloats,
                                          &holder, status);
  EXPECT_EQ(ctx.status().code, TF_INTERNAL);
  EXPECT_EQ(ctx.status().message, "Invalid variable reference.");
  TF_ReleaseVariableInputLockHolder(holder);
  TF_DeleteStatus(status);
}

}  // namespace
}  // namespace conformance::core
