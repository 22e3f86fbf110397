// TF_OpKernelContext functions on a KernelContext built through the C++ API.
#include <cstring>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"

namespace conformance::core {
namespace {

std::string Str(TF_StringView v) { return std::string(v.data, v.len); }

// A device allocator that counts and can run out of memory.
class CountingAllocator : public MemoryAllocator {
 public:
  std::string Name() const override { return "counting"; }
  void* Allocate(std::size_t bytes) override {
    if (fail) return nullptr;
    ++allocations;
    return HostAllocator()->Allocate(bytes);
  }
  void Deallocate(void* ptr, std::size_t bytes) override {
    ++deallocations;
    HostAllocator()->Deallocate(ptr, bytes);
  }
  bool fail = false;
  int allocations = 0;
  int deallocations = 0;
};

class KernelContextTest : public testing::RecorderTest {
 protected:
  ~KernelContextTest() override { TF_DeleteStatus(s_); }
  TF_Status* s_ = TF_NewStatus();
};

TEST_F(KernelContextTest, GetStreamDependsOnTheDevice) {
  KernelContext cpu;
  EXPECT_EQ(TF_GetStream(cpu.c_handle(), s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_FAILED_PRECONDITION);
  EXPECT_STREQ(TF_Message(s_), "Accessing device stream is not supported for a CPU device.");

  DeviceDescriptor gpu;
  gpu.kind = DeviceKind::kOther;
  gpu.type = "GPU";
  KernelContext other(gpu);
  EXPECT_EQ(TF_GetStream(other.c_handle(), s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_FAILED_PRECONDITION);
  EXPECT_STREQ(TF_Message(s_), "Accessing device stream is only supported for pluggable devices.");

  auto* stream = reinterpret_cast<SP_Stream>(0x1234);
  KernelContext pluggable(DeviceDescriptor::Pluggable("MY_DEVICE", stream, 1));
  EXPECT_EQ(TF_GetStream(pluggable.c_handle(), s_), stream);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(TF_GetDeviceId(pluggable.c_handle()), 1);
  EXPECT_EQ(Str(TF_GetDeviceName(pluggable.c_handle())),
            "/job:localhost/replica:0/task:0/device:MY_DEVICE:1");
}

TEST_F(KernelContextTest, InputsAreSharedPluginOwnedHandles) {
  KernelContext ctx;
  ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {2}, {1, 2}));
  ctx.AddOutput(TF_FLOAT);
  EXPECT_EQ(TF_NumInputs(ctx.c_handle()), 1);
  EXPECT_EQ(TF_NumOutputs(ctx.c_handle()), 1);
  TF_Tensor* in = nullptr;
  TF_GetInput(ctx.c_handle(), 0, &in, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(TF_TensorData(in), ctx.input_slot(0).tensor.data());  // shared, not copied
  EXPECT_EQ(TF_InputDatatype(ctx.c_handle(), 0), TF_FLOAT);
  EXPECT_EQ(TF_ExpectedOutputDataType(ctx.c_handle(), 0), TF_FLOAT);
  TF_SetOutput(ctx.c_handle(), 0, in, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  TF_DeleteTensor(in);
  ASSERT_TRUE(ctx.output(0).has_value());
  EXPECT_EQ(ctx.output(0)->ToVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(LiveDelta().tensors, 0);
}

TEST_F(KernelContextTest, IndexErrors) {
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1));
  ctx.AddOutput(TF_FLOAT);
  TF_Tensor* t = nullptr;
  TF_GetInput(ctx.c_handle(), 1, &t, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OUT_OF_RANGE);
  EXPECT_STREQ(TF_Message(s_), "input index out of range");
  EXPECT_EQ(t, nullptr);
  TF_GetInput(ctx.c_handle(), -1, &t, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OUT_OF_RANGE);
  TF_SetOutput(ctx.c_handle(), 1, nullptr, s_);
  EXPECT_EQ(TF_GetCode(s_), TF_OUT_OF_RANGE);
  EXPECT_STREQ(TF_Message(s_), "output index out of range");
  EXPECT_EQ(TF_GetMutableOutput(ctx.c_handle(), 2, s_), nullptr);
  EXPECT_STREQ(TF_Message(s_), "output index out of range");
  EXPECT_FALSE(TF_IsHostMemoryInput(ctx.c_handle(), 3, s_));
  EXPECT_STREQ(TF_Message(s_), "input index out of range");
  EXPECT_FALSE(TF_IsHostMemoryOutput(ctx.c_handle(), 3, s_));
  EXPECT_STREQ(TF_Message(s_), "output index out of range");
  EXPECT_EQ(Recorder::Instance().CallErrors().size(), 6u);
}

TEST_F(KernelContextTest, AllocateOutputIgnoresDtypeAndLenAndUsesTheDeviceAllocator) {
  auto allocator = std::make_shared<CountingAllocator>();
  {
    KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", nullptr, 0, allocator));
    ctx.AddOutput(TF_INT32);
    const int64_t dims[] = {2, 2};
    TF_Tensor* out = TF_AllocateOutput(ctx.c_handle(), 0, TF_DOUBLE, dims, 2, 1, s_);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(TF_TensorType(out), TF_INT32);
    EXPECT_EQ(TF_TensorByteSize(out), 16u);
    EXPECT_EQ(allocator->allocations, 1);
    TF_Tensor* mutable_out = TF_GetMutableOutput(ctx.c_handle(), 0, s_);
    EXPECT_EQ(TF_TensorData(mutable_out), TF_TensorData(out));
    TF_DeleteTensor(mutable_out);

    TF_Tensor* again = TF_AllocateOutput(ctx.c_handle(), 0, TF_INT32, dims, 2, 16, s_);
    EXPECT_EQ(again, nullptr);
    EXPECT_EQ(TF_GetCode(s_), TF_INTERNAL);
    EXPECT_EQ(std::string(TF_Message(s_))
                  .rfind("allocate_output on same index multiple times. index = 0", 0),
              0u);
    TF_DeleteTensor(out);
    EXPECT_EQ(allocator->deallocations, 0);  // the output slot still holds it
  }
  EXPECT_EQ(allocator->deallocations, 1);
}

TEST_F(KernelContextTest, AllocateOutputErrors) {
  auto allocator = std::make_shared<CountingAllocator>();
  allocator->fail = true;
  KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", nullptr, 0, allocator));
  ctx.info().kernel_name = "k";
  ctx.AddOutput(TF_FLOAT);
  const int64_t dims[] = {3};
  EXPECT_EQ(TF_AllocateOutput(ctx.c_handle(), 1, TF_FLOAT, dims, 1, 12, s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_INTERNAL);
  EXPECT_STREQ(TF_Message(s_), "allocate_output with bad index=1 num_outputs=1 kernel=k");
  EXPECT_EQ(TF_AllocateOutput(ctx.c_handle(), -1, TF_FLOAT, dims, 1, 12, s_), nullptr);
  EXPECT_STREQ(TF_Message(s_), "allocate_output with bad index=-1 kernel=k");
  EXPECT_EQ(TF_AllocateOutput(ctx.c_handle(), 0, TF_FLOAT, dims, 1, 12, s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_RESOURCE_EXHAUSTED);
  EXPECT_STREQ(TF_Message(s_),
               "OOM when allocating tensor with shape[3] and type float on "
               "/job:localhost/replica:0/task:0/device:MY_DEVICE:0 by allocator counting");
}

// A shape whose element count fits (TensorShape accepts up to 2^63 - 1) but whose bytes do not
// fit a size_t is refused as TensorFlow's typed allocator refuses it, before any allocator is
// asked: a wrapped product would ask for 0 bytes and hand the kernel a buffer it overruns.
TEST_F(KernelContextTest, AllocateOutputRefusesBytesBeyondSizeT) {
  auto allocator = std::make_shared<CountingAllocator>();
  KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", nullptr, 0, allocator));
  ctx.AddOutput(TF_FLOAT);
  const int64_t dims[] = {int64_t{1} << 62};  // 2^64 bytes of floats: wraps to 0
  EXPECT_EQ(TF_AllocateOutput(ctx.c_handle(), 0, TF_FLOAT, dims, 1, 0, s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_RESOURCE_EXHAUSTED);
  EXPECT_STREQ(TF_Message(s_),
               "OOM when allocating tensor with shape[4611686018427387904] and type float on "
               "/job:localhost/replica:0/task:0/device:MY_DEVICE:0 by allocator counting");
  EXPECT_EQ(allocator->allocations, 0);
}

TEST_F(KernelContextTest, HostMemoryOutputsUseHostMemory) {
  auto allocator = std::make_shared<CountingAllocator>();
  KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", nullptr, 0, allocator));
  ctx.AddInput(Tensor::Scalar<int32_t>(TF_INT32, 3), InputOptions{.host_memory = true});
  ctx.AddOutput(TF_INT32, /*host_memory=*/true);
  EXPECT_TRUE(TF_IsHostMemoryInput(ctx.c_handle(), 0, s_));
  EXPECT_TRUE(TF_IsHostMemoryOutput(ctx.c_handle(), 0, s_));
  TF_Tensor* out = TF_AllocateOutput(ctx.c_handle(), 0, TF_INT32, nullptr, 0, 4, s_);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(allocator->allocations, 0);
  TF_DeleteTensor(out);
}

TEST_F(KernelContextTest, AllocateTempValidatesStructSize) {
  auto allocator = std::make_shared<CountingAllocator>();
  KernelContext ctx(DeviceDescriptor::Pluggable("MY_DEVICE", nullptr, 0, allocator));
  const int64_t dims[] = {4};
  TF_AllocatorAttributes attrs{};
  attrs.on_host = 1;
  EXPECT_EQ(TF_AllocateTemp(ctx.c_handle(), TF_FLOAT, dims, 1, &attrs, s_), nullptr);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_),
               "TF_AllocatorAttributes struct size member must be set to "
               "TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE");
  attrs.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE;
  TF_Tensor* host = TF_AllocateTemp(ctx.c_handle(), TF_FLOAT, dims, 1, &attrs, s_);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(allocator->allocations, 0);  // on_host
  TF_Tensor* device = TF_AllocateTemp(ctx.c_handle(), TF_DOUBLE, dims, 1, nullptr, s_);
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(TF_TensorType(device), TF_DOUBLE);  // the temp's dtype is honoured
  EXPECT_EQ(allocator->allocations, 1);
  EXPECT_EQ(ctx.temp_allocations(), 2);
  TF_DeleteTensor(host);
  TF_DeleteTensor(device);
  EXPECT_EQ(allocator->deallocations, 1);
}

TEST_F(KernelContextTest, ForwardsAnUnsharedInputOrAllocates) {
  KernelContext ctx;
  ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {4}, {1, 2, 3, 4}));
  ctx.AddInput(Tensor::FromVector<int32_t>(TF_INT32, {4}, {1, 2, 3, 4}));
  ctx.AddOutput(TF_FLOAT);
  ctx.AddOutput(TF_FLOAT);
  const int candidates[] = {1, 0};
  const int64_t dims[] = {2, 2};
  int forwarded = -2;
  TF_Tensor* out =
      TF_ForwardInputOrAllocateOutput(ctx.c_handle(), candidates, 2, 0, dims, 2, &forwarded, s_);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(forwarded, 0);  // input 1 has the wrong dtype
  EXPECT_EQ(TF_TensorData(out), ctx.input_slot(0).tensor.data());
  EXPECT_TRUE(ctx.input_slot(0).forwarded);  // the kernel may write into it now
  EXPECT_FALSE(ctx.input_slot(1).forwarded);
  EXPECT_EQ(TF_NumDims(out), 2);
  TF_DeleteTensor(out);

  // Input 0's buffer is now shared with output 0: no second forward.
  TF_Tensor* out1 =
      TF_ForwardInputOrAllocateOutput(ctx.c_handle(), candidates, 2, 1, dims, 2, &forwarded, s_);
  ASSERT_NE(out1, nullptr);
  EXPECT_EQ(forwarded, -1);
  EXPECT_NE(TF_TensorData(out1), ctx.input_slot(0).tensor.data());
  TF_DeleteTensor(out1);
}

TEST_F(KernelContextTest, InputRangesAndInputByName) {
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1));
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 2));
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 3));
  ctx.SetInputRange("x", 0, 1);
  ctx.SetInputRange("values", 1, 3);
  TF_InputRange_Args args{TF_InputRange_Args_STRUCT_SIZE, nullptr, 0, 0, s_};
  TF_InputRange(ctx.c_handle(), "values", &args);
  EXPECT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(args.start, 1);
  EXPECT_EQ(args.stop, 3);
  TF_InputRange(ctx.c_handle(), "nope", &args);
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Unknown input name: nope");
  EXPECT_EQ(args.start, -1);
  EXPECT_EQ(args.stop, -1);

  TF_Tensor* t = nullptr;
  TF_GetInputByName(ctx.c_handle(), "x", &t, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(*static_cast<float*>(TF_TensorData(t)), 1.0f);
  TF_DeleteTensor(t);
  TF_GetInputByName(ctx.c_handle(), "values", &t, s_);
  EXPECT_STREQ(
      TF_Message(s_),
      "OpKernel used list-valued input name 'values' when single-valued input was expected");
  TF_GetInputByName(ctx.c_handle(), "nope", &t, s_);
  EXPECT_STREQ(TF_Message(s_), "Unknown input name: nope");
}

TEST_F(KernelContextTest, RefInputs) {
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1), InputOptions{.is_ref = true});
  ctx.AddOutput(TF_FLOAT);
  EXPECT_TRUE(TF_IsRefInput(ctx.c_handle(), 0, s_));
  EXPECT_FALSE(TF_IsRefInput(ctx.c_handle(), 1, s_));
  EXPECT_EQ(TF_GetCode(s_), TF_OUT_OF_RANGE);
  TF_OpKernelContext_ForwardRefInputToRefOutput(ctx.c_handle(), 0, 0);
  ASSERT_TRUE(ctx.output(0).has_value());
  EXPECT_TRUE(ctx.output(0)->SharesBufferWith(ctx.input_slot(0).tensor));
  EXPECT_TRUE(ctx.input_slot(0).forwarded);
}

// TF_SetOutput with an input shares its buffer (Identity does that) but grants nothing: the
// input is still the caller's, not the kernel's to write.
TEST_F(KernelContextTest, SetOutputOfAnInputGrantsNothing) {
  KernelContext ctx;
  ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {3}, {1, 2, 3}));
  ctx.AddOutput(TF_FLOAT);
  TF_Tensor* in = nullptr;
  TF_GetInput(ctx.c_handle(), 0, &in, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  TF_SetOutput(ctx.c_handle(), 0, in, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  TF_DeleteTensor(in);
  ASSERT_TRUE(ctx.output(0).has_value());
  EXPECT_TRUE(ctx.output(0)->SharesBufferWith(ctx.input_slot(0).tensor));
  EXPECT_FALSE(ctx.input_slot(0).forwarded);
}

TEST_F(KernelContextTest, IdsNamesAndDeferredOps) {
  KernelContext ctx;
  ctx.info().kernel_name = "my_kernel";
  ctx.info().requested_inputs = {"a", "b:1"};
  ctx.info().step_id = 11;
  ctx.info().frame_id = 12;
  ctx.info().iter_id = 13;
  ctx.info().graph_def_version = 1205;
  EXPECT_EQ(TF_StepId(ctx.c_handle()), 11);
  EXPECT_EQ(TF_GetStepId(ctx.c_handle()), 11);
  EXPECT_EQ(TF_GetFrameId(ctx.c_handle()), 12u);
  EXPECT_EQ(TF_GetIterId(ctx.c_handle()), 13);
  EXPECT_EQ(TF_GetGraphDefVersion(ctx.c_handle()), 1205);
  EXPECT_EQ(Str(TF_GetOpKernelName(ctx.c_handle())), "my_kernel");
  EXPECT_EQ(Str(TF_GetOpKernelRequestedInput(ctx.c_handle(), 1)), "b:1");
  EXPECT_EQ(Str(TF_GetResourceMgrDefaultContainerName(ctx.c_handle())), "localhost");
  EXPECT_EQ(Str(TF_GetDeviceName(ctx.c_handle())), "/job:localhost/replica:0/task:0/device:CPU:0");
  TF_IncNumDeferredOps(ctx.c_handle());
  TF_IncNumDeferredOps(ctx.c_handle());
  TF_DecNumDeferredOps(ctx.c_handle());
  EXPECT_EQ(ctx.deferred_ops(), 1);
}

TEST_F(KernelContextTest, FailureKeepsTheFirstError) {
  KernelContext ctx;
  TF_SetStatus(s_, TF_OK, "");
  TF_OpKernelContext_Failure(ctx.c_handle(), s_);
  EXPECT_TRUE(ctx.status().ok());
  TF_SetStatus(s_, TF_INVALID_ARGUMENT, "bad input");
  TF_SetPayload(s_, "k", "v");
  TF_OpKernelContext_Failure(ctx.c_handle(), s_);
  TF_SetStatus(s_, TF_INTERNAL, "later");
  TF_OpKernelContext_Failure(ctx.c_handle(), s_);
  EXPECT_EQ(ctx.status().code, TF_INVALID_ARGUMENT);
  EXPECT_EQ(ctx.status().message, "bad input");
  EXPECT_EQ(ctx.status().payloads.size(), 1u);
}

TEST_F(KernelContextTest, SerializedProtosComeFromTheContextWhenSupplied) {
  KernelContext ctx;
  ctx.info().serialized_config_proto = std::string("\x08\x01", 2);
  TF_Buffer* buffer = TF_NewBuffer();
  TF_GetSerializedConfigProto(ctx.c_handle(), buffer, s_);
  ASSERT_EQ(TF_GetCode(s_), TF_OK);
  EXPECT_EQ(buffer->length, 2u);
  TF_GetSerializedConfigProto(ctx.c_handle(), buffer, s_);  // buffer already filled
  EXPECT_EQ(TF_GetCode(s_), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s_), "Passing non-empty TF_Buffer is invalid.");
  TF_DeleteBuffer(buffer);
}

TEST_F(KernelContextTest, AsyncDoneCountsCalls) {
  int ran = 0;
  AsyncDone done([&] { ++ran; });
  TF_RunAsyncOpKernelDoneCallback(done.c_handle());
  EXPECT_EQ(done.calls(), 1);
  EXPECT_EQ(ran, 1);
}

TEST(KernelContextDeathTest, CheckFailuresAbortWithAMessage) {
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1));
  ctx.AddOutput(TF_FLOAT);
  TF_Status* s = TF_NewStatus();
  EXPECT_DEATH(TF_InputDatatype(ctx.c_handle(), 1), "TF_InputDatatype: input index 1 out of range");
  EXPECT_DEATH(TF_ExpectedOutputDataType(ctx.c_handle(), 5),
               "TF_ExpectedOutputDataType: output index 5");
  EXPECT_DEATH(TF_GetMutableOutput(ctx.c_handle(), 0, s), "output 0 was never set or allocated");
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, nullptr, 0, 4);
  TF_SetOutput(ctx.c_handle(), 0, t, s);
  EXPECT_DEATH(TF_SetOutput(ctx.c_handle(), 0, t, s), "output 0 was already set or allocated");
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core

namespace conformance::core {
namespace {

TEST(KernelContextFaults, HookFailsExactlyTheCallsItNames) {
  TF_Status* s = TF_NewStatus();
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1));
  ctx.AddOutput(TF_FLOAT);
  std::vector<std::string> asked;
  ctx.SetApiHook([&](const KernelApiCall& call) {
    asked.emplace_back(call.function);
    if (call.function == "TF_GetInput") return Status();
    return Status::Error(TF_RESOURCE_EXHAUSTED, "injected");
  });
  TF_Tensor* in = nullptr;
  TF_GetInput(ctx.c_handle(), 0, &in, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  TF_DeleteTensor(in);
  const int64_t dims[] = {1};
  EXPECT_EQ(TF_AllocateOutput(ctx.c_handle(), 0, TF_FLOAT, dims, 1, 4, s), nullptr);
  EXPECT_EQ(TF_GetCode(s), TF_RESOURCE_EXHAUSTED);
  EXPECT_FALSE(ctx.output(0).has_value());
  EXPECT_EQ(TF_AllocateTemp(ctx.c_handle(), TF_FLOAT, dims, 1, nullptr, s), nullptr);
  EXPECT_STREQ(TF_Message(s), "injected");
  EXPECT_EQ(ctx.temp_allocations(), 0);
  EXPECT_EQ(asked,
            (std::vector<std::string>{"TF_GetInput", "TF_AllocateOutput", "TF_AllocateTemp"}));

  ctx.SetApiHook([](const KernelApiCall&) { return Status::Error(TF_INTERNAL, "no"); });
  in = reinterpret_cast<TF_Tensor*>(0x1);
  TF_GetInput(ctx.c_handle(), 0, &in, s);
  EXPECT_EQ(TF_GetCode(s), TF_INTERNAL);
  EXPECT_EQ(in, reinterpret_cast<TF_Tensor*>(0x1));  // untouched on failure, as for a real one
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
