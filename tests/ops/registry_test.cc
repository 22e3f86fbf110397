// TensorFlow's op registry per release (specs/ops/registry, harness/ops/registry.*): the
// embedded files are the committed ones, every line of every release parses into an op, the
// facts the load tier relies on are there, and the hand-written catalogue (specs/ops/*.yaml)
// equals TensorFlow's definition of each of its ops.
#include "ops/registry.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ops/catalogue.h"
#include "ops/op_compare.h"
#include "ops/spec_parser.h"

namespace conformance::ops {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr const char* kNewest = "2.21.0";

std::string CommittedFile(const std::string& release) {
  std::ifstream in(std::string(OPS_SPEC_DIR) + "/registry/tensorflow-" + release + ".ops");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> OpLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() != '#') lines.push_back(line);
  }
  return lines;
}

const OpRegistry& Registry(const char* release) {
  const OpRegistry* registry = FindOpRegistry(release);
  if (registry == nullptr) throw std::runtime_error(std::string("no registry ") + release);
  return *registry;
}

// 2.10.1's registry comes from the release audit (specs/profiles/audit), the others from
// generate_registry.py; both routes give the same lines on 2.15.1 and 2.21.0.
TEST(OpRegistry, EveryCommittedReleaseIsEmbedded) {
  EXPECT_THAT(OpRegistryReleases(), ElementsAre("2.10.1", "2.15.1", "2.21.0"));
  EXPECT_EQ(FindOpRegistry("2.16.0"), nullptr);
}

// The embedded registry is the committed file (every op of it, nothing else), and every line
// parses under TensorFlow's grammar and op validation. Also measures what a full parse costs.
TEST(OpRegistry, EveryOpOfEveryReleaseParses) {
  for (const std::string& release : OpRegistryReleases()) {
    const std::vector<std::string> lines = OpLines(CommittedFile(release));
    const OpRegistry& registry = Registry(release.c_str());
    ASSERT_EQ(registry.size(), lines.size()) << release;
    EXPECT_GT(lines.size(), 1800u) << release;  // TensorFlow 2.x registers ~1,900 ops
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& line : lines) {
      const OpBuild build = ParseRegistryLine(line);
      EXPECT_TRUE(build.ok()) << release << ": " << line << "\n  "
                              << (build.ok() ? "" : ToString(build.errors.front()));
      EXPECT_TRUE(registry.Contains(build.op.name)) << build.op.name;
    }
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    std::printf("TensorFlow %s: %zu ops, %zu bytes; parsing every op takes %lld us\n",
                release.c_str(), lines.size(), CommittedFile(release).size(),
                static_cast<long long>(micros));
  }
}

// What every child pays: indexing a registry's lines by name, without parsing any op.
TEST(OpRegistry, IndexingIsCheap) {
  const std::string text = CommittedFile(kNewest);
  const auto start = std::chrono::steady_clock::now();
  const OpRegistry registry(kNewest, text);
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
  std::printf("indexing TensorFlow %s's %zu ops takes %lld us\n", kNewest, registry.size(),
              static_cast<long long>(micros));
  EXPECT_LT(micros, 50'000);  // generous: about 1 ms on the 2-core CI machine
}

TEST(OpRegistry, LooksUpLazilyAndKeepsTheOp) {
  const OpRegistry& registry = Registry(kNewest);
  const OpDef* first = registry.Find("ReluGrad");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(registry.Find("ReluGrad"), first);
  EXPECT_EQ(registry.Find("AddV3"), nullptr);
  EXPECT_EQ(registry.Find(""), nullptr);
  EXPECT_FALSE(registry.Contains("relu"));  // op names are case-sensitive
}

// The facts behind the false warnings seen on real plugins: ops the 33 hand-written entries
// lack, and dtypes TensorFlow added to AddV2 and Maximum.
TEST(OpRegistry, HoldsWhatPluginsRegister) {
  for (const char* release : {"2.10.1", "2.15.1", "2.21.0"}) {
    const OpRegistry& registry = Registry(release);
    for (const char* op : {"ReluGrad", "ResourceApplyAdam", "AssignVariableOp", "ReadVariableOp",
                           "_Recv", "IdentityN", "BroadcastTo"}) {
      EXPECT_NE(registry.Find(op), nullptr) << release << " " << op;
    }
    EXPECT_THAT(AllowedTypes(*registry.Find("AddV2"), "T"), Contains(TF_UINT64)) << release;
    EXPECT_THAT(AllowedTypes(*registry.Find("Maximum"), "T"), Contains(TF_INT16)) << release;
    EXPECT_THAT(AllowedTypes(*registry.Find("DivNoNan"), "T"), Not(Contains(TF_INT32)));
    const OpDef* adam = registry.Find("ResourceApplyAdam");
    EXPECT_EQ(adam->inputs.front().type, TF_RESOURCE);
    EXPECT_EQ(adam->FindAttr("use_nesterov")->default_text, "false");
  }
  // MatMul's grad_a arrived after 2.15.
  EXPECT_EQ(Registry("2.15.1").Find("MatMul")->FindAttr("grad_a"), nullptr);
  EXPECT_NE(Registry("2.21.0").Find("MatMul")->FindAttr("grad_a"), nullptr);
}

TEST(OpRegistry, KeepsEveryKindOfSpec) {
  const OpRegistry& registry = Registry(kNewest);
  const OpDef* add_n = registry.Find("AddN");
  EXPECT_EQ(add_n->inputs.front().number_attr, "N");
  EXPECT_EQ(add_n->FindAttr("N")->minimum, 1);
  EXPECT_TRUE(registry.Find("Assign")->inputs.front().is_ref);
  EXPECT_EQ(registry.Find("IdentityN")->inputs.front().type_list_attr, "T");
  EXPECT_EQ(registry.Find("PrintV2")->FindAttr("end")->default_text, "'\\n'");
  EXPECT_EQ(registry.Find("ImageSummary")->FindAttr("bad_color")->type, "tensor");
}

TEST(ParseRegistryLine, ReportsTheBrokenSpec) {
  const OpBuild bad = ParseRegistryLine("Bad\tx: T\t->\ty: T\t|\tT: {float, flaot}");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(ToString(bad.errors.front()), HasSubstr("Unrecognized type string 'flaot'"));
  EXPECT_FALSE(ParseRegistryLine("NoSections\tx: float").ok());
  const OpBuild bare = ParseRegistryLine("NoOp\t->\t|");
  ASSERT_TRUE(bare.ok());
  EXPECT_THAT(bare.op.inputs, IsEmpty());
}

// Each hand-written op (specs/ops/*.yaml, the kernel tier's list) equals TensorFlow's newest
// definition: inputs, outputs, attrs with their allowed values, minimums and defaults.
TEST(HandWrittenOps, EqualTensorFlowsDefinitions) {
  const OpRegistry& registry = Registry(kNewest);
  ASSERT_GE(BuiltInOps().size(), 33u);
  for (const OpDef& ours : BuiltInOps()) {
    const OpDef* theirs = registry.Find(ours.name);
    ASSERT_NE(theirs, nullptr) << ours.name << " is not a TensorFlow " << kNewest << " op";
    EXPECT_THAT(DefinitionDifferences(ours, *theirs), IsEmpty()) << ours.name;
  }
}

// The comparison catches what the hand-written entries once got wrong.
TEST(HandWrittenOps, ComparisonCatchesAWrongEntry) {
  const OpRegistry& registry = Registry(kNewest);
  const std::vector<OpDef> old = ParseOpCatalogue("old.yaml",
                                                  "- op: Maximum\n"
                                                  "  summary: s\n"
                                                  "  inputs: [\"x: T\", \"y: T\"]\n"
                                                  "  outputs: [\"z: T\"]\n"
                                                  "  attrs: [\"T: {bfloat16, half, float, double, "
                                                  "int32, int64}\"]\n"
                                                  "- op: MatMul\n"
                                                  "  summary: s\n"
                                                  "  inputs: [\"a: T\", \"b: T\"]\n"
                                                  "  outputs: [\"product: T\"]\n"
                                                  "  attrs: [\"transpose_a: bool = true\", "
                                                  "\"T: {float}\"]\n");
  EXPECT_THAT(DefinitionDifferences(old[0], *registry.Find("Maximum")),
              Contains(HasSubstr("allows uint8, int16, int8, uint16, uint32, uint64 only in "
                                 "TensorFlow's")));
  const auto matmul = DefinitionDifferences(old[1], *registry.Find("MatMul"));
  EXPECT_THAT(matmul, Contains("attr transpose_a: default true, TensorFlow's false"));
  EXPECT_THAT(matmul, Contains("attr transpose_b: missing"));
  EXPECT_THAT(matmul, Contains(HasSubstr("attr T: allows double, int32, ")));
  const OpDef* relu = registry.Find("Relu");
  OpDef renamed = *relu;
  renamed.inputs.front() = ParseArgSpec("x: T").value();
  EXPECT_THAT(DefinitionDifferences(renamed, *relu),
              ElementsAre("inputs [x: T], TensorFlow's [features: T]"));
}

}  // namespace
}  // namespace conformance::ops
