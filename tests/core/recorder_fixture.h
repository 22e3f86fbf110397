#pragma once
// Tests that look at the process-wide Recorder start from a clean slate and attribute
// what they register to a label of their own.
#include <gtest/gtest.h>

#include "core/recorder.h"

namespace conformance::core::testing {

class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Recorder::Instance().Clear();
    Recorder::Instance().SetCurrentPlugin("unit-test");
    live_before_ = Recorder::Instance().Live();
  }
  void TearDown() override { Recorder::Instance().SetCurrentPlugin(""); }

  // Live-handle counts relative to SetUp.
  LiveHandles LiveDelta() const {
    LiveHandles now = Recorder::Instance().Live();
    return LiveHandles{now.statuses - live_before_.statuses, now.tensors - live_before_.tensors,
                       now.buffers - live_before_.buffers,
                       now.kernel_builders - live_before_.kernel_builders,
                       now.op_builders - live_before_.op_builders};
  }

  LiveHandles live_before_;
};

}  // namespace conformance::core::testing
