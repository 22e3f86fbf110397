// complex64 and complex128 values (harness/kernels/complex_values.h): inputs made on the parts,
// comparison per part with the case's tolerance, a complex NaN in either part, and the text a
// failure shows. A kernel that swaps the parts or leaves the imaginary part alone is caught; one
// a ULP off in each part is not.
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/complex_values.h"
#include "kernels/dtype_values.h"
#include "kernels/host_tensor.h"

namespace conformance::kernels {
namespace {

HostTensor Complex64(const std::vector<std::complex<float>>& values, const core::Shape& shape) {
  HostTensor tensor{TF_COMPLEX64, shape, std::vector<std::uint8_t>(values.size() * 8)};
  std::memcpy(tensor.bytes.data(), values.data(), tensor.bytes.size());
  return tensor;
}

std::vector<std::complex<float>> Values(const HostTensor& tensor) {
  std::vector<std::complex<float>> values(static_cast<std::size_t>(tensor.NumElements()));
  std::memcpy(values.data(), tensor.bytes.data(), tensor.bytes.size());
  return values;
}

TEST(ComplexValues, DtypesAndParts) {
  EXPECT_EQ(DtypeFromName("complex64"), TF_COMPLEX64);
  EXPECT_EQ(DtypeName(TF_COMPLEX128), "complex128");
  EXPECT_EQ(ElementSize(TF_COMPLEX64), 8u);
  EXPECT_EQ(ElementSize(TF_COMPLEX128), 16u);
  EXPECT_EQ(ComplexPartDtype(TF_COMPLEX128), TF_DOUBLE);
  EXPECT_EQ(ComplexCounterpart(TF_DOUBLE), TF_COMPLEX128);
  EXPECT_EQ(ComplexCounterpart(TF_COMPLEX64), TF_FLOAT);
  EXPECT_FALSE(ComplexCounterpart(TF_INT32));
  const HostTensor x = Complex64({{1, 2}, {3, -4}}, {2});
  const HostTensor parts = ComplexParts(x);
  EXPECT_EQ(parts.dtype, TF_FLOAT);
  EXPECT_EQ(parts.shape, (core::Shape{2, 2}));
  EXPECT_EQ(parts.At(3), -4.0);
  EXPECT_EQ(ComplexFromParts(parts, TF_COMPLEX64), x);
}

TEST(ComplexValues, RandomInputsFillBothPartsReproducibly) {
  const HostTensor a = MakeInput(InputFill{}, TF_COMPLEX128, {3, 5}, 42);
  EXPECT_EQ(a, MakeInput(InputFill{}, TF_COMPLEX128, {3, 5}, 42));
  EXPECT_EQ(a.bytes.size(), 15u * 16);
  const HostTensor parts = ComplexParts(a);
  int imaginary_nonzero = 0;
  for (std::int64_t i = 1; i < parts.NumElements(); i += 2) imaginary_nonzero += parts.At(i) != 0;
  EXPECT_GT(imaginary_nonzero, 10);
  // A literal is a real number.
  const HostTensor literal = MakeLiteral({2.5, -1.0}, TF_COMPLEX64, {2});
  EXPECT_EQ(Values(literal), (std::vector<std::complex<float>>{{2.5f, 0}, {-1, 0}}));
}

TEST(ComplexValues, ConjThatDoesNothingFailsOnTheImaginaryPart) {
  const HostTensor input = Complex64({{1, 2}, {-3, 0.5f}, {4, 0}}, {3});
  std::vector<std::complex<float>> conj = Values(input);
  for (auto& value : conj) value = std::conj(value);
  const HostTensor expected = Complex64(conj, {3});
  const auto mismatch = CompareValues(expected, input, Tolerance{.ulp = 4});
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->mismatched, 2);  // 4+0i is its own conjugate
  EXPECT_EQ(mismatch->index, "[0].imag");
  EXPECT_EQ(mismatch->expected, -2.0);
  EXPECT_EQ(mismatch->actual, 2.0);
}

TEST(ComplexValues, SwappedPartsFail) {
  const HostTensor expected = Complex64({{1, 2}, {5, 5}}, {2});
  const HostTensor swapped = Complex64({{2, 1}, {5, 5}}, {2});
  const auto mismatch = CompareValues(expected, swapped, Tolerance{.rtol = 0.1});
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->mismatched, 1);
  EXPECT_EQ(mismatch->index, "[0].real");
}

TEST(ComplexValues, OneUlpInEachPartPasses) {
  const HostTensor expected = Complex64({{1.5f, -2.25f}, {1e-3f, 7e5f}}, {2});
  std::vector<std::complex<float>> near = Values(expected);
  for (auto& value : near) {
    value = {std::nextafter(value.real(), 10.0f), std::nextafter(value.imag(), -1e9f)};
  }
  EXPECT_FALSE(CompareValues(expected, Complex64(near, {2}), Tolerance{.ulp = 4}));
  EXPECT_TRUE(CompareValues(expected, Complex64(near, {2}), Tolerance{}));  // exact: not
}

TEST(ComplexValues, NanInEitherPartIsAComplexNan) {
  const float nan = NAN;
  const HostTensor expected = Complex64({{nan, 1}, {2, nan}, {1, 1}}, {3});
  // (nan, nan) and (nan, 0) are the same complex NaN to a reader of either part.
  EXPECT_FALSE(
      CompareValues(expected, Complex64({{nan, nan}, {nan, 0}, {1, 1}}, {3}), Tolerance{.ulp = 4}));
  const auto mismatch =
      CompareValues(expected, Complex64({{nan, 1}, {2, 3}, {1, 1}}, {3}), Tolerance{.ulp = 4});
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->index, "[1].imag");
  EXPECT_TRUE(
      CompareValues(expected, Complex64({{nan, 1}, {2, nan}, {1, nan}}, {3}), Tolerance{.ulp = 4}));
  // Infinities per part, exactly.
  const float inf = INFINITY;
  EXPECT_TRUE(CompareValues(Complex64({{inf, 0}}, {1}), Complex64({{inf, -0.0f}}, {1}), {}) ==
              std::nullopt);
  EXPECT_TRUE(CompareValues(Complex64({{inf, 0}}, {1}), Complex64({{0, inf}}, {1}), {}));
}

TEST(ComplexValues, TextNamesBothParts) {
  const HostTensor x = Complex64({{1.5f, -2}, {NAN, INFINITY}}, {2});
  EXPECT_EQ(ElementString(x, 0), "1.5-2i");
  EXPECT_EQ(ElementString(x, 1), "nan+infi");
  EXPECT_EQ(ElementsString(x, 0), "[1.5-2i, nan+infi]");
  EXPECT_EQ(ValueString(TF_COMPLEX64, 0.25), "0.25");
}

TEST(ComplexValues, SameResultAndZeroSignsPerPart) {
  const HostTensor a = Complex64({{NAN, 0.0f}}, {1});
  EXPECT_TRUE(SameResult(a, Complex64({{NAN, 0.0f}}, {1})));
  EXPECT_FALSE(SameResult(a, Complex64({{NAN, -0.0f}}, {1})));
  const auto zero = CompareZeroSigns(Complex64({{1, 0.0f}}, {1}), Complex64({{1, -0.0f}}, {1}));
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->index, "[0].imag");
}

}  // namespace
}  // namespace conformance::kernels
