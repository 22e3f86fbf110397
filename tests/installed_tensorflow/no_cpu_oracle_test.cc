// Ops no input makes TensorFlow's CPU an oracle for (harness/kernels/no_cpu_oracle.h, a family
// file's `no_cpu_oracle:`): the section parses into reasons that say which kind, errors name
// file:line:col, and the generator and op_coverage give those reasons instead of "related
// inputs" or "rejects every same-shape case".
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "kernels/case_families.h"
#include "kernels/generated_cases.h"
#include "kernels/no_cpu_oracle.h"
#include "kernels/registry_coverage.h"

namespace conformance::kernels {
namespace {

using Reasons = std::map<std::string, std::string>;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry("2.21.0"); }

TEST(NoCpuOracle, EachKindSaysWhyNoValueJudges) {
  const auto parsed = ParseNoCpuOracle(
      "no_cpu_oracle:\n  no_kernel:\n    A: GPU only\n  random_draws:\n    B: samples\n"
      "  shared_state:\n    C: a staging area\n  dies:\n    D: SIGSEGV\n",
      "f.yaml");
  const auto& reasons = std::get<Reasons>(parsed);
  ASSERT_EQ(reasons.size(), 4u);
  EXPECT_TRUE(reasons.at("D").starts_with(kCpuDiesReason));
  EXPECT_TRUE(reasons.at("A").starts_with(kNoCpuKernelReason));
  EXPECT_TRUE(reasons.at("A").ends_with(": GPU only"));
  EXPECT_TRUE(reasons.at("B").starts_with(kRandomDrawsReason));
  EXPECT_TRUE(reasons.at("C").starts_with(kSharedStateReason));
  EXPECT_TRUE(reasons.at("C").ends_with(": a staging area"));
  EXPECT_TRUE(std::get<Reasons>(ParseNoCpuOracle("families: []\n", "f")).empty());
}

TEST(NoCpuOracle, ErrorsNameFileLineAndColumn) {
  const auto parsed = ParseNoCpuOracle("no_cpu_oracle:\n  no_kernels:\n    A: x\n", "f.yaml");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed),
            "f.yaml:2:3: unknown kind 'no_kernels' in `no_cpu_oracle:` (known: no_kernel, "
            "random_draws, shared_state, dies, unreproducible)");
  EXPECT_NE(ParseCaseFamilies("no_cpu_oracle:\n  no_kernel: {}\n", "f.yaml").index(), 1u);
}

// A family and a claim that nothing judges the op contradict each other.
TEST(NoCpuOracle, NoBuiltinOpAlsoHasAFamily) {
  EXPECT_FALSE(BuiltinNoCpuOracle().empty());
  for (const auto& [op, reason] : BuiltinNoCpuOracle()) {
    EXPECT_TRUE(FamiliesOf(op).empty()) << op;
    EXPECT_NE(Registry().Find(op), nullptr) << op;
  }
}

TEST(NoCpuOracle, CoverageGivesTheReasonAndItsGroup) {
  bool grad_grad = false, multinomial = false, staging = false;
  for (const OpCoverage& op : RegistryCoverage(Registry(), 1)) {
    if (op.op == "_FusedBatchNormGradEx") {
      grad_grad = true;
      EXPECT_EQ(op.cases, 0u);
      EXPECT_TRUE(op.reason.starts_with(kNoCpuKernelReason)) << op.reason;
      EXPECT_EQ(op.group, "no TensorFlow CPU kernel any node finds");
    }
    if (op.op == "Multinomial") {  // judged by its draws (random_draws.h), not left out
      multinomial = true;
      EXPECT_EQ(op.cases, 1u);
      EXPECT_EQ(op.family, "stateful random draws");
    }
    if (op.op == "MapPeek") {
      staging = true;
      EXPECT_EQ(op.cases, 0u);
      EXPECT_TRUE(op.reason.starts_with(kSharedStateReason)) << op.reason;
      EXPECT_EQ(op.group, "state earlier calls leave in the process (collectives, staging areas)");
    }
  }
  EXPECT_TRUE(grad_grad && multinomial && staging);
}

// Every op a family file says no value can judge (the measured lists of attr_families.yaml,
// related_families.yaml and attr_defaults_families.yaml) is a registry op without cases whose
// coverage gives that reason, not an attr or input it would otherwise blame.
TEST(NoCpuOracle, EveryListedOpHasNoCasesAndSaysWhy) {
  std::map<std::string, OpCoverage> coverage;
  for (OpCoverage& op : RegistryCoverage(Registry(), 1)) coverage[op.op] = std::move(op);
  for (const auto& [op, reason] : BuiltinNoCpuOracle()) {
    ASSERT_TRUE(coverage.contains(op)) << op << " is not in the registry";
    EXPECT_EQ(coverage[op].cases, 0u) << op;
    EXPECT_EQ(coverage[op].reason, reason) << op;
  }
  EXPECT_TRUE(coverage.at("KthOrderStatistic").reason.starts_with(kNoCpuKernelReason));
  EXPECT_TRUE(coverage.at("Unbatch").reason.starts_with(kSharedStateReason));
  // Judged by its draws (random_draws.h) since no list names it.
  EXPECT_EQ(coverage.at("UniformCandidateSampler").family, "stateful random draws");
}

}  // namespace
}  // namespace conformance::kernels
