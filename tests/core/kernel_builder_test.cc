// Kernel registration: what TF_KernelBuilder_* and TF_RegisterKernelBuilder* record.
#include <string>

#include <gtest/gtest.h>

#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"

namespace conformance::core {
namespace {

void* Create(TF_OpKernelConstruction*) { return nullptr; }
void Compute(void*, TF_OpKernelContext*) {}
void ComputeAsync(void*, TF_OpKernelContext*, TF_AsyncOpKernelDoneCallback*) {}
void Delete(void*) {}

// A few bytes of protobuf wire format for hand-made KernelDefs.
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string Field(uint32_t number, const std::string& bytes) {
  return Varint(number << 3 | 2) + Varint(bytes.size()) + bytes;
}
std::string VarintField(uint32_t number, uint64_t v) { return Varint(number << 3) + Varint(v); }

class KernelBuilderTest : public testing::RecorderTest {};

TEST_F(KernelBuilderTest, RegistrationRecordsEverythingTheBuilderSaid) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("AddV2", "MY_DEVICE", Create, Compute, Delete);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_HALF, s);
  TF_KernelBuilder_HostMemory(b, "shape");
  TF_KernelBuilder_Priority(b, 7);
  TF_KernelBuilder_Label(b, "fast");
  EXPECT_EQ(LiveDelta().kernel_builders, 1);
  TF_RegisterKernelBuilder("AddV2Op", b, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(LiveDelta().kernel_builders, 0);  // ownership passed to the core

  auto kernels = Recorder::Instance().Kernels();
  ASSERT_EQ(kernels.size(), 1u);
  const KernelRegistration& k = kernels[0];
  EXPECT_EQ(k.plugin, "unit-test");
  EXPECT_EQ(k.kernel_name, "AddV2Op");
  EXPECT_EQ(k.op_name, "AddV2");
  EXPECT_EQ(k.device_type, "MY_DEVICE");
  EXPECT_EQ(k.type_constraints,
            (std::vector<std::pair<std::string, int>>{{"T", TF_FLOAT}, {"T", TF_HALF}}));
  EXPECT_EQ(k.host_memory_args, std::vector<std::string>{"shape"});
  EXPECT_EQ(k.priority, 7);
  EXPECT_EQ(k.label, "fast");
  EXPECT_FALSE(k.is_async);
  EXPECT_EQ(k.create_func, reinterpret_cast<void*>(&Create));
  EXPECT_EQ(k.compute_func, reinterpret_cast<void*>(&Compute));
  EXPECT_EQ(k.delete_func, reinterpret_cast<void*>(&Delete));
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, AsyncBuilderIsMarked) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b =
      TF_NewAsyncKernelBuilder("Recv", "MY_DEVICE", nullptr, ComputeAsync, nullptr);
  TF_RegisterKernelBuilder("RecvOp", b, s);
  auto kernels = Recorder::Instance().Kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_TRUE(kernels[0].is_async);
  EXPECT_EQ(kernels[0].compute_func, reinterpret_cast<void*>(&ComputeAsync));
  EXPECT_EQ(kernels[0].create_func, nullptr);
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, EveryStandardTypeIsAcceptedAsConstraint) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("Op", "D", nullptr, Compute, nullptr);
  for (int t = TF_FLOAT; t <= TF_UINT64; ++t) {
    TF_KernelBuilder_TypeConstraint(b, "T", static_cast<TF_DataType>(t), s);
    EXPECT_EQ(TF_GetCode(s), TF_OK) << "type " << t;
  }
  TF_DeleteKernelBuilder(b);
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, UnsupportedTypeConstraintIsUnimplementedAndRecorded) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("MatMul", "D", nullptr, Compute, nullptr);
  for (int t : {0, int{TF_FLOAT8_E5M2}, int{TF_INT4}, int{TF_UINT2}, 33, 101}) {
    TF_KernelBuilder_TypeConstraint(b, "T", static_cast<TF_DataType>(t), s);
    EXPECT_EQ(TF_GetCode(s), TF_UNIMPLEMENTED);
    EXPECT_EQ(std::string(TF_Message(s)), "Unexpected type " + std::to_string(t));
  }
  TF_RegisterKernelBuilder("MatMulOp", b, s);
  auto kernels = Recorder::Instance().Kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_TRUE(kernels[0].type_constraints.empty());  // rejected constraints are left out

  auto errors = Recorder::Instance().CallErrors();
  ASSERT_EQ(errors.size(), 6u);
  EXPECT_EQ(errors[1].function, "TF_KernelBuilder_TypeConstraint");
  EXPECT_EQ(errors[1].subject, "MatMul");
  EXPECT_EQ(errors[1].plugin, "unit-test");
  EXPECT_EQ(errors[1].code, TF_UNIMPLEMENTED);
  EXPECT_EQ(errors[1].message, "Unexpected type 24");
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, KernelDefReplacesTheBuilderDeclarations) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("Ignored", "IGNORED", Create, Compute, Delete);
  TF_KernelBuilder_HostMemory(b, "ignored");
  const std::string allowed =
      Field(1, Field(6, Varint(TF_FLOAT) + Varint(TF_DOUBLE)));  // list{type:[..]}
  const std::string def = Field(1, "MyOp") + Field(2, "GPU") +
                          Field(3, Field(1, "T") + Field(2, allowed)) + Field(4, "x") +
                          Field(5, "lbl") + VarintField(6, 5) +
                          VarintField(99, 1);  // an unknown field is skipped
  TF_RegisterKernelBuilderWithKernelDef(def.c_str(), "MyKernel", b, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  auto kernels = Recorder::Instance().Kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].kernel_name, "MyKernel");
  EXPECT_EQ(kernels[0].op_name, "MyOp");
  EXPECT_EQ(kernels[0].device_type, "GPU");
  EXPECT_EQ(kernels[0].type_constraints,
            (std::vector<std::pair<std::string, int>>{{"T", TF_FLOAT}, {"T", TF_DOUBLE}}));
  EXPECT_EQ(kernels[0].host_memory_args, std::vector<std::string>{"x"});
  EXPECT_EQ(kernels[0].label, "lbl");
  EXPECT_EQ(kernels[0].priority, 5);
  EXPECT_EQ(kernels[0].compute_func, reinterpret_cast<void*>(&Compute));
  EXPECT_EQ(LiveDelta().kernel_builders, 0);
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, UnparsableKernelDefIsInvalidArgumentAndBuilderStaysWithPlugin) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("Op", "D", nullptr, Compute, nullptr);
  const std::string truncated =
      "\x0a\x10"
      "ab";  // length 16, two bytes present
  TF_RegisterKernelBuilderWithKernelDef(truncated.c_str(), "K", b, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Error parsing serialized KernelDef.");
  EXPECT_TRUE(Recorder::Instance().Kernels().empty());
  EXPECT_EQ(LiveDelta().kernel_builders, 1);
  const std::string bad_utf8 = Field(1, "\xff\xfe");
  TF_RegisterKernelBuilderWithKernelDef(bad_utf8.c_str(), "K", b, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  TF_DeleteKernelBuilder(b);
  EXPECT_EQ(LiveDelta().kernel_builders, 0);
  auto errors = Recorder::Instance().CallErrors();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].function, "TF_RegisterKernelBuilderWithKernelDef");
  TF_DeleteStatus(s);
}

TEST_F(KernelBuilderTest, DeleteKernelBuilderAcceptsNull) {
  TF_DeleteKernelBuilder(nullptr);
  EXPECT_EQ(LiveDelta().kernel_builders, 0);
}

TEST(KernelBuilderDeathTest, SecondLabelAborts) {
  TF_KernelBuilder* b = TF_NewKernelBuilder("Op", "D", nullptr, Compute, nullptr);
  TF_KernelBuilder_Label(b, "one");
  EXPECT_DEATH(TF_KernelBuilder_Label(b, "two"),
               "Trying to set a kernel's label a second time: 'two'");
  TF_DeleteKernelBuilder(b);
}

}  // namespace
}  // namespace conformance::core
