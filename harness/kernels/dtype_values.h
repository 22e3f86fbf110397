#pragma once
// Element values of the dtypes kernel scenarios use, read and written as doubles: the one
// place that knows half and bfloat16 bit layouts, integer rounding and what an ULP is.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorflow/c/tf_datatype.h"

namespace conformance::kernels {

// Scenario dtype names are TensorFlow's DataTypeString names ("float", "half", "int32", ...).
std::optional<TF_DataType> DtypeFromName(std::string_view name);
std::string DtypeName(TF_DataType dtype);
// The names DtypeFromName accepts, for did-you-mean suggestions.
const std::vector<std::string>& ScenarioDtypeNames();

bool IsFloating(TF_DataType dtype);  // half, bfloat16, float, double
bool IsUnsigned(TF_DataType dtype);  // quint8 and quint16 too
// qint8, quint8, qint16, quint16, qint32: integers in storage, read, made and compared as such
// (the float range each stands for is the op's min and max inputs, not the tensor's; an output
// followed by its range is compared as the floats it stands for: quantized_ranges.h).
bool IsQuantized(TF_DataType dtype);
std::size_t ElementSize(TF_DataType dtype);

// Element `index` of a dense buffer of `dtype` (complex: its real part; complex_values.h reads
// both parts).
double ReadElement(TF_DataType dtype, const std::uint8_t* data, std::int64_t index);
// Stores `value` rounded to `dtype` (nearest-even for floats, toward zero and saturated for
// integers, non-zero as true for bool; complex: value + 0i).
void WriteElement(TF_DataType dtype, std::uint8_t* data, std::int64_t index, double value);

// Distance in units in the last place between two finite values of a floating dtype
// (0 for equal values, including +0 and -0).
std::uint64_t UlpDistance(TF_DataType dtype, double a, double b);

// Special values a scenario may name instead of a number, resolved per dtype:
// nan, inf, -inf, max, lowest, denorm_min, -denorm_min (denormals only exist for floats;
// for integers denorm_min is 1).
std::optional<double> SpecialValue(TF_DataType dtype, std::string_view name);
const std::vector<std::string>& SpecialValueNames();

}  // namespace conformance::kernels
