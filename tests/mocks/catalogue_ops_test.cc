// The fake kernel context knows every op of the catalogue (specs/ops) with no per-op
// declaration: inputs are checked, outputs allocated with the dtypes the attrs give, and the
// attr defaults TensorFlow adds to a NodeDef reach the kernel.
#include <gtest/gtest.h>

#include <string>

#include "core/variables.h"
#include "mocks/kernel_test.h"
#include "ops/catalogue.h"
#include "tensorflow/c/kernels.h"

namespace conformance::mocks {
namespace {

// Reads every input and allocates every output (one element of the dtype TensorFlow expects).
void TouchEveryArgument(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  for (int i = 0; i < TF_NumInputs(ctx) && TF_GetCode(status) == TF_OK; ++i) {
    TF_Tensor* input = nullptr;
    TF_GetInput(ctx, i, &input, status);
    TF_DeleteTensor(input);
  }
  for (int i = 0; i < TF_NumOutputs(ctx) && TF_GetCode(status) == TF_OK; ++i) {
    const TF_DataType dtype = TF_ExpectedOutputDataType(ctx, i);
    const int64_t dims[] = {1};
    TF_DeleteTensor(TF_AllocateOutput(ctx, i, dtype, dims, 1, TF_DataTypeSize(dtype), status));
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteStatus(status);
}

core::KernelRegistration KernelFor(const std::string& op) {
  core::KernelRegistration kernel;
  kernel.op_name = op;
  kernel.device_type = "MY_DEVICE";
  kernel.compute_func = reinterpret_cast<void*>(&TouchEveryArgument);
  return kernel;
}

TF_DataType SomeAllowedType(const ops::OpDef& op, const std::string& attr) {
  const std::vector<TF_DataType> allowed = ops::AllowedTypes(op, attr);
  for (TF_DataType preferred : {TF_FLOAT, TF_INT32}) {
    if (std::find(allowed.begin(), allowed.end(), preferred) != allowed.end()) return preferred;
  }
  return allowed.front();
}

TEST(FakeKernelContextCatalogue, EveryCatalogueOpRunsWithoutDeclarations) {
  KernelDevice device("MY_DEVICE");
  ASSERT_FALSE(ops::BuiltInOps().empty());
  for (const ops::OpDef& op : ops::BuiltInOps()) {
    SCOPED_TRACE(op.name);
    ASSERT_TRUE(FindOpSignature(op.name).has_value());
    FakeKernelContext context(KernelFor(op.name), device);
    std::map<std::string, TF_DataType> types;
    for (const ops::AttrDef& attr : op.attrs) {
      if (attr.type != "type") continue;
      if (std::holds_alternative<core::AttrNotSet>(attr.default_value)) {
        types[attr.name] = SomeAllowedType(op, attr.name);
        context.Attr(attr.name, types[attr.name]);
      } else if (const auto* dtype = std::get_if<TF_DataType>(&attr.default_value)) {
        types[attr.name] = *dtype;  // MaxPool's T = DT_FLOAT: the context applies the default
      }
    }
    for (const ops::ArgDef& input : op.inputs) {
      const TF_DataType dtype = input.type                     ? *input.type
                                : types.count(input.type_attr) ? types[input.type_attr]
                                                               : TF_INT32;  // Tidx-like defaults
      core::Status status;
      if (dtype == TF_RESOURCE) {  // a handle to a variable of the mock core's store
        context.Input(core::VariableStore::Default().Create(
            core::Tensor::FromVector<float>(TF_FLOAT, {1}, {0})));
        continue;
      }
      context.Input(core::Tensor::Allocate(dtype, {1}, &status));
    }
    KernelResult result = context.Run();
    ASSERT_TRUE(result.ok()) << core::ToString(result.compute);
    EXPECT_EQ(result.outputs.size(), op.outputs.size());
    for (const auto& output : result.outputs) EXPECT_TRUE(output.has_value());
  }
}

// Sum's keep_dims (= false) and Tidx (= DT_INT32) are defaults the test never sets.
void ReadSumDefaults(TF_OpKernelConstruction* ctx, TF_Status* status) {
  TF_Bool keep_dims = 1;
  TF_OpKernelConstruction_GetAttrBool(ctx, "keep_dims", &keep_dims, status);
  if (TF_GetCode(status) == TF_OK && keep_dims != 0)
    TF_SetStatus(status, TF_INTERNAL, "keep_dims is not its default");
  TF_DataType tidx = TF_FLOAT;
  if (TF_GetCode(status) == TF_OK) TF_OpKernelConstruction_GetAttrType(ctx, "Tidx", &tidx, status);
  if (TF_GetCode(status) == TF_OK && tidx != TF_INT32)
    TF_SetStatus(status, TF_INTERNAL, "Tidx is not its default");
}

void* CreateSum(TF_OpKernelConstruction* ctx) {
  TF_Status* status = TF_NewStatus();
  ReadSumDefaults(ctx, status);
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(ctx, status);
  TF_DeleteStatus(status);
  return nullptr;
}

TEST(FakeKernelContextCatalogue, TheOpsAttrDefaultsReachTheKernel) {
  KernelDevice device("MY_DEVICE");
  core::KernelRegistration kernel = KernelFor("Sum");
  kernel.create_func = reinterpret_cast<void*>(&CreateSum);
  FakeKernelContext sum(kernel, device);
  KernelResult result =
      sum.Attr("T", TF_FLOAT).Input<float>({2}, {1, 2}).Input<int32_t>({1}, {0}).Run();
  EXPECT_TRUE(result.construction.ok()) << core::ToString(result.construction);
  EXPECT_TRUE(result.ok()) << core::ToString(result.compute);
}

TEST(FakeKernelContextCatalogue, ASetAttrWinsOverTheDefault) {
  KernelDevice device("MY_DEVICE");
  core::KernelRegistration kernel = KernelFor("Sum");
  kernel.create_func = reinterpret_cast<void*>(&CreateSum);
  FakeKernelContext sum(kernel, device);
  KernelResult result = sum.Attr("T", TF_FLOAT)
                            .Attr("keep_dims", true)
                            .Input<float>({2}, {1, 2})
                            .Input<int32_t>({1}, {0})
                            .Run();
  EXPECT_EQ(result.construction, core::Status::Error(TF_INTERNAL, "keep_dims is not its default"));
}

}  // namespace
}  // namespace conformance::mocks
