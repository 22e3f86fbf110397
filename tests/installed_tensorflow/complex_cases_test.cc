// Generated cases of complex64 and complex128 cells (harness/kernels/complex_fills.h,
// specs/ops/families/complex_families.yaml): fills that mean something for complex numbers,
// the real-to-complex ops' cells paired in one precision, Fourier lengths that relate to the
// input's shape.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "kernels/complex_fills.h"
#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/family_fills.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "ops/registry.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

const ops::OpRegistry& Registry() { return *ops::FindOpRegistry("2.21.0"); }

std::vector<json> CellCases(const std::string& op, std::vector<std::pair<std::string, int>> types) {
  const json generated =
      GenerateCases({{op, std::move(types)}}, BuiltinKernelScenarios(), Registry(), {}, 1);
  return generated.at("cases").get<std::vector<json>>();
}

TEST(ComplexFills, MeanWhatTheySayForComplexNumbers) {
  const HostTensor ones = *MakeFill("ones", TF_COMPLEX64, {4}, 1);
  const HostTensor ones_parts = ComplexParts(ones);
  for (std::int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ones_parts.At(2 * i), 1.0);
    EXPECT_EQ(ones_parts.At(2 * i + 1), 0.0);
  }
  // NaN at every third element, in the real part, the imaginary part and both in turn.
  const HostTensor nan = ComplexParts(*MakeFill("nan", TF_COMPLEX128, {9}, 1));
  EXPECT_TRUE(std::isnan(nan.At(2)) && !std::isnan(nan.At(3)));
  EXPECT_TRUE(!std::isnan(nan.At(8)) && std::isnan(nan.At(9)));
  EXPECT_TRUE(std::isnan(nan.At(14)) && std::isnan(nan.At(15)));
  EXPECT_FALSE(std::isnan(nan.At(0)) || std::isnan(nan.At(1)));
  // Distinct parts: no two elements equal.
  const HostTensor distinct = ComplexParts(*MakeFill("distinct", TF_COMPLEX64, {50}, 3));
  std::set<double> seen;
  for (std::int64_t i = 0; i < distinct.NumElements(); ++i) seen.insert(distinct.At(i));
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_FALSE(MakeFill("above_2_24", TF_COMPLEX64, {3}, 1).has_value());
  // The special values put NaN and infinities in either part beside an ordinary one.
  const HostTensor special = ComplexParts(*MakeFill("special", TF_COMPLEX64, {15}, 1));
  EXPECT_TRUE(std::isnan(special.At(0)) && special.At(1) == 1.0);
  EXPECT_TRUE(special.At(2) == 1.0 && std::isnan(special.At(3)));
  EXPECT_TRUE(std::isinf(special.At(7)) && special.At(6) == 0.0);
}

TEST(ComplexFills, HermitianMatricesEqualTheirConjugateTranspose) {
  const HostTensor h = ComplexParts(*MakeFill("hermitian", TF_COMPLEX64, {2, 3, 3}, 5));
  for (std::int64_t b = 0; b < 2; ++b) {
    for (std::int64_t i = 0; i < 3; ++i) {
      EXPECT_EQ(h.At(2 * (b * 9 + i * 3 + i) + 1), 0.0);
      for (std::int64_t j = 0; j < 3; ++j) {
        const std::int64_t ij = 2 * (b * 9 + i * 3 + j), ji = 2 * (b * 9 + j * 3 + i);
        EXPECT_EQ(h.At(ij), h.At(ji));
        EXPECT_EQ(h.At(ij + 1), -h.At(ji + 1));
      }
    }
  }
  const HostTensor s = *MakeFill("hermitian", TF_FLOAT, {4, 4}, 5);
  EXPECT_EQ(s.At(1), s.At(4));
  EXPECT_FALSE(MakeFill("hermitian", TF_COMPLEX64, {3, 4}, 5).has_value());
}

TEST(ComplexCases, RealAndComplexPairInOnePrecision) {
  // Complex's double cell makes complex128, and no variant pairs double with complex64.
  for (const json& kernel_case : CellCases("Complex", {{"T", TF_DOUBLE}})) {
    EXPECT_EQ(kernel_case.at("attrs").at("Tout").at("type"), TF_COMPLEX128)
        << kernel_case.at("variant");
  }
  // Real's complex128 cell makes double.
  for (const json& kernel_case : CellCases("Real", {{"T", TF_COMPLEX128}})) {
    EXPECT_EQ(kernel_case.at("attrs").at("Tout").at("type"), TF_DOUBLE);
  }
  // RFFT's float cell makes complex64 only.
  const std::vector<json> rfft = CellCases("RFFT", {{"Treal", TF_FLOAT}});
  ASSERT_FALSE(rfft.empty());
  for (const json& kernel_case : rfft) {
    EXPECT_EQ(kernel_case.at("attrs").at("Tcomplex").at("type"), TF_COMPLEX64);
  }
}

TEST(ComplexCases, FourierLengthsRelateToTheInput) {
  const std::vector<json> irfft = CellCases("IRFFT", {{"Tcomplex", TF_COMPLEX64}});
  ASSERT_GE(irfft.size(), 6u);
  for (const json& kernel_case : irfft) {
    const json& input = kernel_case.at("inputs").at(0);
    EXPECT_EQ(input.at("dtype"), "complex64");
    const auto shape = input.at("shape").get<core::Shape>();
    const std::string length_hex = kernel_case.at("inputs").at(1).at("hex");
    const auto length = std::stoul(length_hex.substr(0, 2), nullptr, 16) +
                        256 * std::stoul(length_hex.substr(2, 2), nullptr, 16);
    EXPECT_GE(shape.back(), static_cast<std::int64_t>(length / 2 + 1)) << kernel_case.at("variant");
  }
  const std::vector<json> fft = CellCases("FFT", {{"Tcomplex", TF_COMPLEX128}});
  EXPECT_GE(fft.size(), 10u);
}

}  // namespace
}  // namespace conformance::kernels
