// The Relu kernel unit-tested in the fake kernel context of the installed mocks, exactly as
// mocks/README.md shows, in a project built as C++17: the plugin's own device type, no
// per-op declaration (Relu comes from the package's op catalogue).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "mocks/kernel_test.h"

extern "C" void TF_InitKernel();

namespace {

using conformance::mocks::FakeKernelContext;
using conformance::mocks::KernelDevice;
using conformance::mocks::KernelResult;
using ::testing::ElementsAre;

static_assert(__cplusplus == 201703L, "this consumer checks that the mocks build as C++17");

TEST(ReluKernelTest, ClampsNegativesToZero) {
  KernelDevice device("HOSTSAMPLE");  // device 0 of a mock StreamExecutor, the plugin's type
  FakeKernelContext relu(&TF_InitKernel, "Relu", device);
  EXPECT_CALL(relu.api(), AllocateOutput(0, ElementsAre(2, 2)));
  KernelResult r = relu.Attr("T", TF_FLOAT).Input<float>({2, 2}, {-1, 2, -3, 4}).Run();
  ASSERT_TRUE(r.ok()) << conformance::core::ToString(r.compute);
  EXPECT_EQ(r.Output<float>(0), (std::vector<float>{0, 2, 0, 4}));
  EXPECT_EQ(r.leaked_tensors, 0);
}

}  // namespace
