// TF_DataTypeSize against the measured table in specs/abi/tf_enums.json. Entries that
// are null there (unverified) must be 1: the documented choice (README "Decisions").
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tensorflow/c/tf_datatype.h"

namespace {

nlohmann::json LoadEnums() {
  std::ifstream in(TF_ENUMS_JSON);
  EXPECT_TRUE(in.good()) << TF_ENUMS_JSON;
  return nlohmann::json::parse(in);
}

TEST(DataTypeTest, SizesMatchTheAbiTable) {
  const auto enums = LoadEnums();
  const auto& values = enums.at("TF_DataType");
  const auto& sizes = enums.at("TF_DataTypeSize");
  int checked = 0;
  for (const auto& [name, value] : values.items()) {
    const auto dtype = static_cast<TF_DataType>(value.get<int>());
    const auto& expected = sizes.at(name);
    const size_t want = expected.is_null() ? 1 : expected.get<size_t>();
    EXPECT_EQ(TF_DataTypeSize(dtype), want) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 32);
}

TEST(DataTypeTest, UnknownValuesHaveSizeZero) {
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(0)), 0u);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(33)), 0u);
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(101)), 0u);  // *_REF never appears in C
  EXPECT_EQ(TF_DataTypeSize(static_cast<TF_DataType>(-1)), 0u);
}

}  // namespace
