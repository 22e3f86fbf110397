// The mocks' per-generation facts (mocks/generation.cc, mocks/callbacks.cc) agree with the
// golden layouts in specs/abi/ that the harness validates plugins against.
#include <gtest/gtest.h>

#include <string>

#include "mocks/callbacks.h"
#include "mocks/generation.h"
#include "validate/abi_layout.h"

namespace conformance::mocks {
namespace {

struct GoldenFile {
  Generation generation;
  const char* file;
};

class GenerationFacts : public ::testing::TestWithParam<GoldenFile> {};

TEST_P(GenerationFacts, MatchTheGoldenLayout) {
  const auto& layout = validate::LayoutFile(GetParam().file);
  const auto& facts = Facts(GetParam().generation);
  const auto& se = layout.Struct("SP_StreamExecutor");
  EXPECT_EQ(facts.stream_executor_size, se.struct_size_value);
  EXPECT_EQ(facts.platform_struct_size, layout.Struct("SP_Platform").struct_size_value);
  for (int i = 0; i <= static_cast<int>(Callback::kHostCallback); ++i) {
    const auto callback = static_cast<Callback>(i);
    const std::string name(CallbackName(callback));
    const auto offset = CallbackOffset(callback, GetParam().generation);
    ASSERT_EQ(offset.has_value(), se.HasField(name)) << name;
    if (offset) {
      EXPECT_EQ(*offset, se.Field(name).offset) << name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Generations, GenerationFacts,
    ::testing::Values(GoldenFile{Generation::kNewest, "tf_layout_28d8b176.json"},
                      GoldenFile{Generation::kTf2_7, "tf_layout_2.7.4.json"},
                      GoldenFile{Generation::kTf2_5, "tf_layout_b8016ccb.json"}));

}  // namespace
}  // namespace conformance::mocks
