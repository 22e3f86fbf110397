// The TP_OptimizerConfigs report of load.graph.configs.struct_size: which layout the plugin
// wrote (92 newest, 88 before the bfloat16 toggle) and TensorFlow's toggle semantics.
#include "validate/graph_configs.h"

#include <cstdint>

#include <gtest/gtest.h>

#include "validate/abi_layout.h"
#include "validate/struct_buffer.h"

namespace conformance::validate {
namespace {

constexpr std::int32_t kOff = 1, kOn = 2;

StructBuffer NewestConfigs() {
  return StructBuffer(LayoutFile("tf_layout.json").Struct("TP_OptimizerConfigs"));
}

TEST(GraphConfigs, NewestLayoutAndTensorFlowsToggleSemantics) {
  StructBuffer configs = NewestConfigs();
  configs.Set<std::int32_t>("remapping", kOff);
  configs.Set<std::int32_t>("constant_folding", kOn);  // On keeps it on, as Default does
  auto details = DescribeOptimizerConfigs(configs);
  EXPECT_EQ(details["configs_layout"].rfind("92: newest", 0), 0u) << details["configs_layout"];
  EXPECT_EQ(details["toggles_off"], "remapping");
  EXPECT_EQ(details["model_pruning"], "enabled");  // Default does not disable pruning
  EXPECT_FALSE(details.contains("layout_mismatch"));

  configs.Set<std::int32_t>("disable_model_pruning", kOff);
  EXPECT_EQ(DescribeOptimizerConfigs(configs)["model_pruning"], "enabled");  // only On disables
  configs.Set<std::int32_t>("disable_model_pruning", kOn);
  EXPECT_EQ(DescribeOptimizerConfigs(configs)["model_pruning"], "disabled");
}

TEST(GraphConfigs, OlderLayoutIsNamedAndItsShiftedTogglesListed) {
  StructBuffer configs = NewestConfigs();
  const StructLayout& old = LayoutFile("tf_layout_11032793.json").Struct("TP_OptimizerConfigs");
  // A plugin built against the 18-toggle header turns remapping off at its offset (64).
  configs.Set<std::uint64_t>("struct_size", old.struct_size_value);
  configs.Set<std::int32_t>("layout_optimizer", kOff);  // newest offset 64 == old remapping
  ASSERT_EQ(old.Field("remapping").offset, configs.layout().Field("layout_optimizer").offset);
  auto details = DescribeOptimizerConfigs(configs);
  EXPECT_EQ(details["configs_layout"].rfind("88: grappler.h before the bfloat16 toggle", 0), 0u);
  EXPECT_EQ(details["toggles_off"], "layout_optimizer");  // what TensorFlow really turns off
  EXPECT_NE(details["layout_mismatch"].find("remapping (plugin: Off, TensorFlow reads: Default)"),
            std::string::npos)
      << details["layout_mismatch"];
}

}  // namespace
}  // namespace conformance::validate
