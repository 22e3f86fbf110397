#pragma once
// Tensors on the harness side of the copies: a dtype, a shape and dense bytes. Inputs are made
// here from a scenario's fill (seeded, so a printed seed reproduces them) and outputs land here
// after the plugin's memcpy, to be compared.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

struct HostTensor {
  TF_DataType dtype = TF_FLOAT;
  core::Shape shape;
  std::vector<std::uint8_t> bytes;
  // TF_STRING's elements (kernels/string_values.h); `bytes` stays empty for them.
  std::vector<std::string> strings = {};

  std::int64_t NumElements() const { return core::NumElements(shape); }
  double At(std::int64_t index) const;
  friend bool operator==(const HostTensor&, const HostTensor&) = default;
};

// The seed of one input of one case: the run's --seed mixed with the check id, the shape
// entry and the input index, so cases are independent and each is reproducible on its own.
std::uint64_t InputSeed(std::uint64_t run_seed, const std::string& case_id, std::size_t shape_index,
                        std::size_t input_index, std::uint64_t seed_offset);

HostTensor MakeInput(const InputFill& fill, TF_DataType dtype, const core::Shape& shape,
                     std::uint64_t seed);
// Literal numbers (a family's `value:`); in a complex dtype each is a real number (v + 0i).
HostTensor MakeLiteral(const std::vector<Number>& values, TF_DataType dtype,
                       const core::Shape& shape);

// "[1,0,2]": the multi-dimensional index of element `flat` in `shape`.
std::string IndexString(const core::Shape& shape, std::int64_t flat);
// A value as a person reads it: integers without a fraction, floats with enough digits.
std::string ValueString(TF_DataType dtype, double value);

// Element `index` as a person reads it (ValueString; complex: "1.5-2i").
std::string ElementString(const HostTensor& tensor, std::int64_t index);

// Up to `count` elements from flat index `first`, as a person reads them: "[11, 22, 33, ...]".
std::string ElementsString(const HostTensor& tensor, std::int64_t first, std::int64_t count = 3);

// The worst element of a comparison (the one furthest outside its tolerance).
struct Mismatch {
  std::int64_t flat_index = 0;
  std::string index;  // IndexString
  double expected = 0, actual = 0;
  std::int64_t mismatched = 0;  // how many elements are outside the tolerance
};

// How far outside `tolerance` `actual` is for `expected` (<= 1 is inside): NaN matches NaN,
// infinities match exactly, subnormals match zero and each other (TensorFlow's CPU flushes them,
// other hardware keeps them), integers exactly.
double ToleranceExcess(TF_DataType dtype, double expected, double actual, const Tolerance& t);

// Same dtype and shape are checked by the caller; this compares the values (complex ones per
// part, complex_values.h).
std::optional<Mismatch> CompareValues(const HostTensor& expected, const HostTensor& actual,
                                      const Tolerance& tolerance);

// The first element where both are zero but of different signs (floating dtypes; equal values
// otherwise, as CompareValues sees them). Only for ops whose zero signs TensorFlow defines
// (OpDefinesZeroSign).
std::optional<Mismatch> CompareZeroSigns(const HostTensor& expected, const HostTensor& actual);

// Whether TensorFlow defines the sign of a zero result of `op`: IEEE 754 arithmetic (AddV2(-0,
// -0) is -0, Neg(0) is -0, Sqrt(-0) is -0) and ops that move bits. Not max/min-based ops (Relu,
// Maximum, Max: IEEE leaves max(-0, +0) open, and TensorFlow's CPU and GPU kernels differ), nor
// reductions and products, whose zero sign depends on the order of the terms.
bool OpDefinesZeroSign(std::string_view op);

// Bitwise equality except that any NaN equals any NaN (for "the same result twice").
bool SameResult(const HostTensor& a, const HostTensor& b);

}  // namespace conformance::kernels
