// Kernel scenarios for ops a plugin defines itself (kernels/plugin_ops.h), with a fake listing
// in place of the child process: the listing happens only for an op neither the catalogue nor
// TensorFlow's registry holds, at most once; the plugin's definition then checks the scenario
// like a catalogue op's; a definition TensorFlow rejects, or a listing that failed, is said.
#include <gtest/gtest.h>

#include "kernels/kernel_parser.h"

namespace conformance::kernels {
namespace {

// VendorScale as tests/vendor_ops/vendor_scale.c defines it.
core::OpRegistration VendorScale() {
  core::OpRegistration op;
  op.name = "VendorScale";
  op.attrs = {"T: {float, half}", "scale: float = 1.0"};
  op.inputs = {"x: T"};
  op.outputs = {"y: T"};
  return op;
}

struct CountingLister {
  int* calls;
  PluginOpsListing listing;
  PluginOpsListing operator()() const {
    ++*calls;
    return listing;
  }
};

std::string Scenario(const std::string& op, const std::string& dtype, const std::string& input,
                     const std::string& attrs) {
  return "tensorflow: t\nfix: f\nkernels:\n  - op: " + op +
         "\n    name: s\n    rule: r\n    dtypes: [" + dtype +
         "]\n    shapes: [[[2]]]\n    inputs: [{name: " + input +
         ", values: [1, 2]}]\n    attrs: " + attrs + "\n";
}

std::vector<std::string> Errors(const std::string& text, PluginOps& plugin_ops,
                                std::vector<KernelScenario>* scenarios = nullptr) {
  scenario::ErrorList errors("v.yaml");
  KernelScenarioFile file =
      ParseKernelScenarioText(text, "v.yaml", errors, ops::FindOpRegistry("2.21.0"), &plugin_ops);
  if (scenarios != nullptr) *scenarios = std::move(file.scenarios);
  std::vector<std::string> lines;
  for (const auto& e : errors.errors()) lines.push_back(e.ToString());
  return lines;
}

TEST(PluginOps, ListedOnlyForAnOpNeitherCatalogueNorRegistryHolds) {
  int calls = 0;
  PluginOps plugin_ops(CountingLister{&calls, {{VendorScale()}, ""}});
  // A catalogue op (Relu) and a registry op (Floor): no process for the plugin's ops.
  EXPECT_TRUE(Errors(Scenario("Relu", "float", "features", "{}"), plugin_ops).empty());
  EXPECT_TRUE(Errors(Scenario("Floor", "float", "x", "{}"), plugin_ops).empty());
  EXPECT_EQ(calls, 0);
  // The plugin's op: listed once, however many scenarios name it.
  std::vector<KernelScenario> scenarios;
  EXPECT_TRUE(
      Errors(Scenario("VendorScale", "float", "x", "{scale: 2}"), plugin_ops, &scenarios).empty());
  EXPECT_TRUE(Errors(Scenario("VendorScale", "float", "x", "{}"), plugin_ops).empty());
  EXPECT_EQ(calls, 1);
  ASSERT_EQ(scenarios.size(), 1u);
  ASSERT_NE(scenarios[0].plugin_definition, nullptr);
  EXPECT_EQ(scenarios[0].definition, scenarios[0].plugin_definition.get());
  // A whole number for the float attr is that float, as for catalogue ops.
  EXPECT_EQ(std::get<float>(scenarios[0].attrs.at("scale")), 2.0f);
}

TEST(PluginOps, ScenarioIsCheckedAgainstThePluginsDefinition) {
  int calls = 0;
  PluginOps plugin_ops(CountingLister{&calls, {{VendorScale()}, ""}});
  EXPECT_EQ(Errors(Scenario("VendorScale", "int32", "x", "{}"), plugin_ops),
            (std::vector<std::string>{"v.yaml:7:14: key 'dtypes': VendorScale does not allow "
                                      "T=int32; it allows float, half"}));
  EXPECT_EQ(Errors(Scenario("VendorScale", "float", "y", "{}"), plugin_ops),
            (std::vector<std::string>{
                "v.yaml:9:21: key 'name': VendorScale has no input 'y'; its inputs, in order: x"}));
  EXPECT_EQ(Errors(Scenario("VendorScale", "float", "x", "{scale: [1]}"), plugin_ops),
            (std::vector<std::string>{"v.yaml:10:13: key 'scale': attr 'scale' of VendorScale is "
                                      "a float, got a list"}));
  EXPECT_EQ(calls, 1);
}

TEST(PluginOps, UnknownOpSuggestsThePluginsOps) {
  int calls = 0;
  PluginOps plugin_ops(CountingLister{&calls, {{VendorScale()}, ""}});
  const std::vector<std::string> errors =
      Errors(Scenario("VendorScail", "float", "x", "{}"), plugin_ops);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "v.yaml:4:9: key 'op': unknown op 'VendorScail' (did you mean 'VendorScale'?); kernel "
            "scenarios run the ops TensorFlow 2.21.0 registers (specs/ops/registry) and the ops "
            "the plugin defines (TF_RegisterOpDefinition: VendorScale)");
}

TEST(PluginOps, FailedListingIsNamedInTheError) {
  int calls = 0;
  PluginOps plugin_ops(CountingLister{&calls, {{}, "the plugin died of signal 11"}});
  const std::vector<std::string> errors =
      Errors(Scenario("VendorScale", "float", "x", "{}"), plugin_ops);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "v.yaml:4:9: key 'op': unknown op 'VendorScale'; kernel scenarios run the ops "
            "TensorFlow 2.21.0 registers (specs/ops/registry); the plugin's own ops could not be "
            "listed: the plugin died of signal 11");
}

TEST(PluginOps, DefinitionTensorFlowRejectsIsNotUsed) {
  core::OpRegistration broken = VendorScale();
  broken.attrs[0] = "T: {float, flaot}";
  int calls = 0;
  PluginOps plugin_ops(CountingLister{&calls, {{broken}, ""}});
  const std::vector<std::string> errors =
      Errors(Scenario("VendorScale", "float", "x", "{}"), plugin_ops);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("v.yaml:4:9: key 'op': the plugin defines VendorScale, but TensorFlow "
                           "rejects its definition (load.kernels.op_definitions): "),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[0].find("flaot"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace conformance::kernels
