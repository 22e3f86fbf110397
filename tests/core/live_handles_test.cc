// The Recorder's live-handle counts follow every create/release through the C API.
#include <gtest/gtest.h>

#include "recorder_fixture.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"

namespace conformance::core {
namespace {

void Compute(void*, TF_OpKernelContext*) {}

class LiveHandlesTest : public testing::RecorderTest {};

TEST_F(LiveHandlesTest, CountsFollowCreateAndRelease) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBufferFromString("x", 1);
  const int64_t dims[] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  TF_KernelBuilder* kb = TF_NewKernelBuilder("Op", "D", nullptr, Compute, nullptr);
  TF_OpDefinitionBuilder* ob = TF_NewOpDefinitionBuilder("Op");
  LiveHandles d = LiveDelta();
  EXPECT_EQ(d.statuses, 1);
  EXPECT_EQ(d.buffers, 1);
  EXPECT_EQ(d.tensors, 1);
  EXPECT_EQ(d.kernel_builders, 1);
  EXPECT_EQ(d.op_builders, 1);

  TF_RegisterKernelBuilder("K", kb, s);
  TF_RegisterOpDefinition(ob, s);
  TF_DeleteTensor(t);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  d = LiveDelta();
  EXPECT_EQ(d.statuses, 0);
  EXPECT_EQ(d.buffers, 0);
  EXPECT_EQ(d.tensors, 0);
  EXPECT_EQ(d.kernel_builders, 0);
  EXPECT_EQ(d.op_builders, 0);
}

TEST_F(LiveHandlesTest, UnreleasedHandlesStayCountedUntilReleased) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder("Leaky", "D", nullptr, Compute, nullptr);
  TF_Status* failed = TF_NewStatus();
  TF_KernelBuilder_TypeConstraint(b, "T", TF_INT4, failed);  // errors do not release anything
  EXPECT_EQ(LiveDelta().statuses, 2);
  EXPECT_EQ(LiveDelta().kernel_builders, 1);
  TF_DeleteKernelBuilder(b);
  TF_DeleteStatus(failed);
  TF_DeleteStatus(s);
  EXPECT_EQ(LiveDelta().statuses, 0);
  EXPECT_EQ(LiveDelta().kernel_builders, 0);
}

TEST_F(LiveHandlesTest, ClearKeepsCounting) {
  TF_Status* s = TF_NewStatus();
  Recorder::Instance().Clear();
  EXPECT_EQ(LiveDelta().statuses, 1);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
