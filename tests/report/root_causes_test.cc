// Root-cause grouping: equal (failing_call, problem) is one cause, and a kernel callback's is
// one per kernel; a failure without the keys is its own; order is that of the first failure.
#include "run/root_causes.h"

#include <gtest/gtest.h>

namespace conformance {
namespace {

CheckResult Failure(std::string id, const std::string& call = {}, const std::string& problem = {},
                    Outcome outcome = Outcome::kFail) {
  CheckResult result;
  result.id = std::move(id);
  result.outcome = outcome;
  result.message = "message of " + result.id;
  if (!call.empty()) result.details[kFailingCallKey] = call;
  if (!problem.empty()) result.details[kProblemKey] = problem;
  return result;
}

TEST(RootCausesTest, EqualCallAndProblemFormOneCauseWithEveryCheck) {
  const std::vector<RootCause> causes = GroupRootCauses({
      Failure("runtime.a", "create_stream", "out-parameter never written"),
      Failure("runtime.b", "host_callback", "returned false"),
      Failure("runtime.c", "create_stream", "out-parameter never written", Outcome::kCrash),
      Failure("runtime.d", "create_stream", "out-parameter never written", Outcome::kTimeout),
  });
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0].call, "create_stream");
  EXPECT_EQ(causes[0].problem, "out-parameter never written");
  EXPECT_EQ(causes[0].message, "message of runtime.a");
  EXPECT_EQ(causes[0].checks, (std::vector<std::string>{"runtime.a", "runtime.c", "runtime.d"}));
  EXPECT_EQ(causes[1].call, "host_callback");
  EXPECT_EQ(causes[1].checks, (std::vector<std::string>{"runtime.b"}));
}

TEST(RootCausesTest, SameCallDifferentProblemAreTwoCauses) {
  EXPECT_EQ(GroupRootCauses({Failure("a", "memcpy_htod", "wrong bytes written"),
                             Failure("b", "memcpy_htod", "late")})
                .size(),
            2u);
}

TEST(RootCausesTest, AFailureWithoutBothKeysIsItsOwnCause) {
  const std::vector<RootCause> causes = GroupRootCauses({
      Failure("a"),
      Failure("b"),
      Failure("c", "create_event", ""),
      Failure("d", "create_event", ""),
  });
  ASSERT_EQ(causes.size(), 4u);
  EXPECT_EQ(causes[0].call, "");
  EXPECT_EQ(causes[0].message, "message of a");
  EXPECT_EQ(causes[2].call, "create_event");  // kept for the reader, but not grouped
}

CheckResult KernelFailure(std::string id, const std::string& call, const std::string& kernel) {
  CheckResult result = Failure(std::move(id), call, "wrong values");
  result.details[kKernelKey] = kernel;
  return result;
}

// Issue 29 item 9: ClipByValue, Lgamma and Softplus computing wrong values were one root cause
// under ClipByValue's message.
TEST(RootCausesTest, EachKernelsCallbackIsACauseOfItsOwn) {
  const std::vector<RootCause> causes = GroupRootCauses({
      KernelFailure("kernel.ClipByValue.float.a", "compute_func", "ClipByValue"),
      KernelFailure("kernel.Lgamma.float.a", "compute_func", "Lgamma"),
      KernelFailure("kernel.ClipByValue.half.a", "compute_func", "ClipByValue"),
      KernelFailure("kernel.Lgamma.float.a.in_tensorflow", "compute_func", "Lgamma"),
      KernelFailure("kernel.Relu.float.a", "create_func", "Relu"),
  });
  ASSERT_EQ(causes.size(), 3u);
  EXPECT_EQ(causes[0].kernel, "ClipByValue");
  EXPECT_EQ(causes[0].checks,
            (std::vector<std::string>{"kernel.ClipByValue.float.a", "kernel.ClipByValue.half.a"}));
  EXPECT_EQ(causes[1].kernel, "Lgamma");
  EXPECT_EQ(causes[1].message, "message of kernel.Lgamma.float.a");
  EXPECT_EQ(causes[1].checks.size(), 2u);
  EXPECT_EQ(causes[2].kernel, "Relu");
  EXPECT_EQ(RootCauseLabel(causes[0]), "compute_func (ClipByValue): wrong values");
}

// A device callback is one for every kernel: a freed-under-queued-work deallocate found by two
// kernels' checks and a runtime check is one root cause, naming no kernel.
TEST(RootCausesTest, ADeviceCallbackIsOneCauseAcrossKernels) {
  const std::vector<RootCause> causes = GroupRootCauses({
      KernelFailure("kernel.AddV2.inputs_released_at_enqueue", "deallocate", "AddV2"),
      KernelFailure("kernel.MatMul.inputs_released_at_enqueue", "deallocate", "MatMul"),
      Failure("runtime.memory.deallocate.queued_work", "deallocate", "wrong values"),
  });
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].kernel, "");
  EXPECT_EQ(causes[0].checks.size(), 3u);
  EXPECT_EQ(RootCauseLabel(causes[0]), "deallocate: wrong values");
  EXPECT_EQ(RootCauseKernels({KernelFailure("k", "deallocate", "AddV2"),
                              KernelFailure("k", "compute_async_func", "AddV2")}),
            (std::vector<std::string>{"", "AddV2"}));
}

// A model run as a graph in the installed TensorFlow names no kernel: it is the lone failing
// kernel's defect, or, with several, a root cause of its own.
TEST(RootCausesTest, AFailureNamingNoKernelJoinsTheLoneKernelsCause) {
  const CheckResult graph = Failure("model.mlp.float.installed", "compute_func", "wrong values");
  const std::vector<RootCause> one =
      GroupRootCauses({KernelFailure("kernel.Relu.float.a", "compute_func", "Relu"), graph});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].checks.size(), 2u);
  const std::vector<RootCause> two =
      GroupRootCauses({KernelFailure("kernel.Relu.float.a", "compute_func", "Relu"),
                       KernelFailure("kernel.MatMul.float.a", "compute_func", "MatMul"), graph});
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[2].kernel, "");
  EXPECT_EQ(two[2].checks, (std::vector<std::string>{"model.mlp.float.installed"}));
}

TEST(RootCausesTest, OnlyFailuresCrashesAndTimeoutsCount) {
  std::vector<CheckResult> results;
  for (Outcome outcome : {Outcome::kPass, Outcome::kWarning, Outcome::kSkipped, Outcome::kWaived,
                          Outcome::kNotSupported, Outcome::kUnexpectedPass}) {
    results.push_back(Failure("x", "create_stream", "never written", outcome));
  }
  EXPECT_TRUE(GroupRootCauses(results).empty());
}

}  // namespace
}  // namespace conformance
