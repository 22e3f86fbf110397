// c_api.h's registry and version functions: TF_Version and TF_GetAllOpList answer for the
// release the harness emulates, TF_OpIsStateful for that release's ops and the plugin's,
// TF_GetRegisteredKernelsForOp with the plugin's kernels. Expected behaviour measured on the
// 2.15.1 and 2.21.0 wheels (ctypes on libtensorflow_cc.so.2).
#include <string>

#include <gtest/gtest.h>

#include "core/emulated_release.h"
#include "recorder_fixture.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "wire_bytes.h"

namespace conformance::core {
namespace {

using testing::BytesField;
using testing::VarintField;

void* Create(TF_OpKernelConstruction*) { return nullptr; }
void Compute(void*, TF_OpKernelContext*) {}

// An OpList of two ops: "Add" (stateless) and "VarHandleOp" (is_stateful = 17).
std::string TwoOpList() {
  return BytesField(1, BytesField(1, "Add")) +
         BytesField(1, BytesField(1, "VarHandleOp") + VarintField(17, 1));
}

class RegistryApiTest : public testing::RecorderTest {
 protected:
  void SetUp() override {
    RecorderTest::SetUp();
    SetEmulatedRelease({.version = "2.15.1", .serialized_op_list = [] { return TwoOpList(); }});
  }
  void TearDown() override {
    SetEmulatedRelease({.version = "2.21.0", .serialized_op_list = nullptr});
    RecorderTest::TearDown();
  }
};

TEST_F(RegistryApiTest, VersionIsTheEmulatedRelease) { EXPECT_STREQ(TF_Version(), "2.15.1"); }

TEST_F(RegistryApiTest, AllOpListIsTheEmulatedRegistry) {
  TF_Buffer* list = TF_GetAllOpList();
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(std::string(static_cast<const char*>(list->data), list->length), TwoOpList());
  TF_DeleteBuffer(list);
}

TEST_F(RegistryApiTest, OpIsStatefulReadsTheRegistry) {
  TF_Status* s = TF_NewStatus();
  EXPECT_EQ(TF_OpIsStateful("Add", s), 0);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(TF_OpIsStateful("VarHandleOp", s), 1);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  TF_DeleteStatus(s);
}

TEST_F(RegistryApiTest, OpIsStatefulOfAnUnknownOpIsNotFound) {
  TF_Status* s = TF_NewStatus();
  for (const char* name : {"NoSuchOp", ""}) {
    EXPECT_EQ(TF_OpIsStateful(name, s), 0);
    EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
    EXPECT_EQ(
        std::string(TF_Message(s)).rfind("Op type not registered '" + std::string(name) + "'", 0),
        0u)
        << TF_Message(s);
  }
  TF_DeleteStatus(s);
}

TEST_F(RegistryApiTest, OpIsStatefulKnowsThePluginsOps) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("MyStateful");
  TF_OpDefinitionBuilderSetIsStateful(b, true);
  TF_RegisterOpDefinition(b, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(TF_OpIsStateful("MyStateful", s), 1);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  TF_DeleteStatus(s);
}

TEST_F(RegistryApiTest, RegisteredKernelsAreAKernelList) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("Relu", "MY_DEVICE", Create, Compute, nullptr);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_KernelBuilder_HostMemory(b, "features");
  TF_KernelBuilder_Priority(b, 3);
  TF_KernelBuilder_Label(b, "fast");
  TF_RegisterKernelBuilder("ReluOp", b, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);

  TF_Buffer* list = TF_GetRegisteredKernelsForOp("Relu", s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  // KernelList{kernel = 1: KernelDef{op 1, device_type 2, constraint 3 {name 1,
  // allowed_values 2 {list 1 {type 6}}}, host_memory_arg 4, label 5, priority 6}}.
  const std::string constraint =
      BytesField(1, "T") + BytesField(2, BytesField(1, VarintField(6, TF_FLOAT)));
  const std::string kernel_def = BytesField(1, "Relu") + BytesField(2, "MY_DEVICE") +
                                 BytesField(3, constraint) + BytesField(4, "features") +
                                 BytesField(5, "fast") + VarintField(6, 3);
  EXPECT_EQ(std::string(static_cast<const char*>(list->data), list->length),
            BytesField(1, kernel_def));
  TF_DeleteBuffer(list);
  TF_DeleteStatus(s);
}

TEST_F(RegistryApiTest, AnOpWithoutKernelsIsAnEmptyList) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* list = TF_GetRegisteredKernelsForOp("NoSuchOp", s);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(list->length, 0u);
  TF_DeleteBuffer(list);
  TF_DeleteStatus(s);
}

// TensorFlow's FunctionLibraryDefinition looks in the graph's functions, then in the op
// registry: a graph optimizer asks for built-in ops (ITEX's native layout pass for Placeholder).
TEST_F(RegistryApiTest, LookUpOpDefFindsTheEmulatedRegistrysOps) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* graph = TF_NewBufferFromString("", 0);  // an empty GraphDef
  TF_FunctionLibraryDefinition* lib = TF_NewFunctionLibraryDefinition(graph, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  TF_Buffer* op = TF_NewBuffer();
  TF_LookUpOpDef(lib, "VarHandleOp", op, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  EXPECT_EQ(std::string(static_cast<const char*>(op->data), op->length),
            BytesField(1, "VarHandleOp") + VarintField(17, 1));
  TF_DeleteBuffer(op);
  op = TF_NewBuffer();
  TF_LookUpOpDef(lib, "NoSuchOp", op, s);
  EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
  EXPECT_EQ(op->data, nullptr);
  TF_DeleteBuffer(op);
  TF_DeleteFunctionLibraryDefinition(lib);
  TF_DeleteBuffer(graph);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
