// Every function the mock core cannot honestly provide fails with UNIMPLEMENTED naming
// itself (and the call is recorded) rather than returning made-up data.
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"

namespace conformance::core {
namespace {

void Copy(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*) {}
void Add(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*, TF_Tensor*) {}

class UnimplementedTest : public testing::RecorderTest {};

TEST_F(UnimplementedTest, EachNamesItself) {
  KernelContext ctx;
  ctx.AddInput(Tensor::Scalar<float>(TF_FLOAT, 1));
  TF_OpKernelContext* c = ctx.c_handle();
  TF_Buffer* buffer = TF_NewBuffer();

  const std::vector<std::pair<std::string, std::function<void(TF_Status*)>>> calls = {
      {"TF_GetSerializedConfigProto",
       [&](TF_Status* s) { TF_GetSerializedConfigProto(c, buffer, s); }},
      {"TF_GetSerializedFunctionDefLibrary",
       [&](TF_Status* s) { TF_GetSerializedFunctionDefLibrary(c, buffer, s); }},
      {"TF_GetSerializedResourceHandleProto",
       [&](TF_Status* s) { TF_GetSerializedResourceHandleProto(c, 0, buffer, s); }},
      {"TF_AssignRefVariable",
       [&](TF_Status* s) { TF_AssignRefVariable(c, 0, 0, 1, true, true, Copy, s); }},
      {"TF_AddNVariant", [&](TF_Status* s) { TF_AddNVariant(c, Add, s); }},
      {"TF_ZerosLikeVariant", [&](TF_Status* s) { TF_ZerosLikeVariant(c, Copy, s); }},
  };
  TF_Status* s = TF_NewStatus();
  for (const auto& [name, call] : calls) {
    TF_SetStatus(s, TF_OK, "");
    call(s);
    EXPECT_EQ(TF_GetCode(s), TF_UNIMPLEMENTED) << name;
    EXPECT_EQ(std::string(TF_Message(s)),
              name + " is not implemented by the plugin_conformance mock core");
  }
  EXPECT_EQ(buffer->data, nullptr);  // nothing made up

  auto errors = Recorder::Instance().CallErrors();
  ASSERT_EQ(errors.size(), calls.size());
  for (size_t i = 0; i < calls.size(); ++i) EXPECT_EQ(errors[i].function, calls[i].first);

  TF_DeleteBuffer(buffer);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
