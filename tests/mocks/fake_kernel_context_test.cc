// The fake kernel context: a registration the test builds, gmock hooks on the kernel C API,
// and clear failures for inputs that do not match the op.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "mocks/kernel_test.h"
#include "tensorflow/c/kernels.h"

namespace conformance::mocks {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Return;

// A kernel written in the test: z = -x for float, allocating z with x's shape.
void NegateCompute(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = nullptr;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) == TF_OK) {
    std::vector<int64_t> dims(static_cast<std::size_t>(TF_NumDims(x)));
    for (int i = 0; i < TF_NumDims(x); ++i) dims[static_cast<std::size_t>(i)] = TF_Dim(x, i);
    TF_Tensor* z = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                     TF_TensorByteSize(x), status);
    if (TF_GetCode(status) == TF_OK) {
      const auto* in = static_cast<const float*>(TF_TensorData(x));
      auto* out = static_cast<float*>(TF_TensorData(z));
      for (int64_t i = 0; i < TF_TensorElementCount(x); ++i) out[i] = -in[i];
    }
    TF_DeleteTensor(z);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(x);
  TF_DeleteStatus(status);
}

core::KernelRegistration NegateKernel() {
  core::KernelRegistration kernel;
  kernel.op_name = "Neg";
  kernel.device_type = "MOCK_DEVICE";
  kernel.compute_func = reinterpret_cast<void*>(&NegateCompute);
  return kernel;
}

const OpSignature kNeg{{{"x", "T"}}, {{"y", "T"}}};

TEST(FakeKernelContext, RunsAKernelFromARegistrationTheTestBuilt) {
  KernelDevice device;
  FakeKernelContext neg(NegateKernel(), device);
  KernelResult result = neg.Signature(kNeg).Attr("T", TF_FLOAT).Input<float>({2}, {1, -2}).Run();
  ASSERT_TRUE(result.ok()) << core::ToString(result.compute);
  EXPECT_EQ(result.Output<float>(0), (std::vector<float>{-1, 2}));
  EXPECT_EQ(result.leaked_tensors, 0);
}

TEST(FakeKernelContext, HooksSeeTheKernelsCallsAndCanFailThem) {
  KernelDevice device;
  FakeKernelContext neg(NegateKernel(), device);
  EXPECT_CALL(neg.api(), GetInput(0));
  EXPECT_CALL(neg.api(), AllocateOutput(0, ElementsAre(3)))
      .WillOnce(Return(core::Status::Error(TF_RESOURCE_EXHAUSTED, "injected")));
  EXPECT_CALL(neg.api(), GetStream()).Times(0);  // this kernel never asks for its stream
  KernelResult result = neg.Signature(kNeg).Attr("T", TF_FLOAT).Input<float>({3}, {1, 2, 3}).Run();
  EXPECT_EQ(result.compute, core::Status::Error(TF_RESOURCE_EXHAUSTED, "injected"));
  EXPECT_FALSE(result.outputs.at(0).has_value());
}

TEST(FakeKernelContextMisuse, InputDtypeDoesNotMatchTheOp) {
  KernelDevice device;
  FakeKernelContext add(NegateKernel(), device);
  add.Signature({{{"x", "T"}, {"y", "T"}}, {{"z", "T"}}}).Attr("T", TF_FLOAT);
  add.Input<float>({1}, {1}).Input<int32_t>({1}, {2});
  EXPECT_NONFATAL_FAILURE(
      add.Run(), "FakeKernelContext(Neg): input 1 (y) is int32 but the op wants T = float");
}

TEST(FakeKernelContextMisuse, InputCountDoesNotMatchTheOp) {
  KernelDevice device("MOCK_DEVICE");
  core::KernelRegistration kernel = NegateKernel();
  kernel.op_name = "AddV2";  // a built-in signature: x, y
  FakeKernelContext add(kernel, device);
  add.Attr("T", TF_FLOAT).Input<float>({1}, {1});
  EXPECT_NONFATAL_FAILURE(add.Run(),
                          "FakeKernelContext(AddV2): 1 input(s) given, the op takes 2 (x, y)");
}

TEST(FakeKernelContextMisuse, TypeAttrNotSet) {
  KernelDevice device;
  FakeKernelContext neg(NegateKernel(), device);
  neg.Signature(kNeg).Input<float>({1}, {1});
  EXPECT_NONFATAL_FAILURE(neg.Run(),
                          "argument x has type attr T, which is not set; add Attr(\"T\", <dtype>)");
}

TEST(FakeKernelContextMisuse, NoKernelRegisteredForTheAttrs) {
  KernelDevice device;
  FakeKernelContext add(
      +[] {}, "AddV2", device);  // a TF_InitKernel that registers nothing
  add.Attr("T", TF_FLOAT).Input<float>({1}, {1}).Input<float>({1}, {2});
  EXPECT_NONFATAL_FAILURE(add.Run(),
                          "TF_InitKernel registered no AddV2 kernel for device type MOCK_DEVICE");
}

}  // namespace
}  // namespace conformance::mocks
