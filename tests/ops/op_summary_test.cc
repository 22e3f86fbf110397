// TensorFlow's one-line text of an op (ops::SummarizeOpDef, harness/ops/op_summary.*): equal to
// the text TensorFlow 2.21.0 itself printed for a set of ops that together use every part of the
// format (tests/ops/op_summaries-2.21.0.txt, written by tests/ops/op_summaries.py), and built
// from a plugin's own op registration. The CTest ops.summaries.<release> (label tensorflow)
// compares every op of both registries with the installed wheels.
#include "ops/op_summary.h"

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "ops/op_builder.h"
#include "ops/registry.h"

namespace conformance::ops {
namespace {

TEST(SummarizeOpDef, EqualsTensorFlowsTextForEveryGoldenOp) {
  const OpRegistry* registry = FindOpRegistry("2.21.0");
  ASSERT_NE(registry, nullptr);
  std::ifstream in(std::string(OPS_TEST_DIR) + "/op_summaries-2.21.0.txt");
  ASSERT_TRUE(in) << "the golden file is missing";
  int compared = 0;
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const OpDef* op = registry->Find(line.substr(0, tab));
    ASSERT_NE(op, nullptr) << line;
    EXPECT_EQ(SummarizeOpDef(*op), line.substr(tab + 1));
    ++compared;
  }
  EXPECT_GE(compared, 40);
}

TEST(SummarizeOpDef, RendersAPluginsOwnOpWithItsFlags) {
  core::OpRegistration registration;
  registration.name = "VendorScale";
  registration.attrs = {"T: {float, half}", "scale: float = 1.0",
                        "mode: {'fast', 'exact'} = 'fast'", "N: int >= 1"};
  registration.inputs = {"x: N * T", "table: Ref(int64)"};
  registration.outputs = {"y: T"};
  registration.is_stateful = true;
  registration.is_commutative = true;
  const OpBuild build = BuildFromRegistration(registration);
  ASSERT_TRUE(build.ok());
  EXPECT_EQ(SummarizeOpDef(build.op),
            "Op<name=VendorScale; signature=x:N*T, table:Ref(int64) -> y:T; "
            "attr=T:type,allowed=[DT_FLOAT, DT_HALF]; attr=scale:float,default=1; "
            "attr=mode:string,default=\"fast\",allowed=[\"fast\", \"exact\"]; attr=N:int,min=1; "
            "is_commutative=true; is_stateful=true>");
}

TEST(ParseRegistryLine, ReadsTheOpFlagsAfterTheAttrs) {
  const OpBuild build = ParseRegistryLine(
      "Assign\tref: Ref(T)\tvalue: T\t->\toutput_ref: Ref(T)\t|\tT: type\t!\t"
      "allows_uninitialized_input");
  ASSERT_TRUE(build.ok());
  EXPECT_TRUE(build.op.allows_uninitialized_input);
  EXPECT_FALSE(build.op.is_stateful);
  EXPECT_FALSE(ParseRegistryLine("Bad\t->\t|\t!\tis_flaky").ok());
}

}  // namespace
}  // namespace conformance::ops
