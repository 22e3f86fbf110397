#include "kernels/dtype_values.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

namespace conformance::kernels {
namespace {

struct Named {
  const char* name;
  TF_DataType dtype;
};
constexpr Named kNames[] = {
    {"float", TF_FLOAT},
    {"double", TF_DOUBLE},
    {"half", TF_HALF},
    {"bfloat16", TF_BFLOAT16},
    {"int8", TF_INT8},
    {"int16", TF_INT16},
    {"int32", TF_INT32},
    {"int64", TF_INT64},
    {"uint8", TF_UINT8},
    {"uint16", TF_UINT16},
    {"uint32", TF_UINT32},
    {"uint64", TF_UINT64},
    {"bool", TF_BOOL},
    // Elements of text (kernels/string_values.h): no numbers, ElementSize 0.
    {"string", TF_STRING},
};
// Two parts of float or double each (complex_values.h reads and makes both).
constexpr Named kComplexNames[] = {{"complex64", TF_COMPLEX64}, {"complex128", TF_COMPLEX128}};
// Quantized dtypes: integers in storage (qint8 is an int8, quint16 a uint16); what they stand
// for is the float range the op's min and max inputs give, so their values are read, made and
// compared as the integers they hold.
constexpr Named kQuantizedNames[] = {{"qint8", TF_QINT8},
                                     {"quint8", TF_QUINT8},
                                     {"qint16", TF_QINT16},
                                     {"quint16", TF_QUINT16},
                                     {"qint32", TF_QINT32}};

// Every dtype with values, in the order names are listed.
const std::vector<Named>& AllNames() {
  static const std::vector<Named> all = [] {
    std::vector<Named> names(std::begin(kNames), std::end(kNames));
    names.insert(names.end(), std::begin(kComplexNames), std::end(kComplexNames));
    names.insert(names.end(), std::begin(kQuantizedNames), std::end(kQuantizedNames));
    return names;
  }();
  return all;
}

// IEEE binary16 <-> float. Conversion to half rounds to nearest even, like Eigen::half.
float HalfToFloat(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1f;
  std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits = 0;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {  // denormal: normalise
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | ((112 - e) << 23) | ((mantissa & 0x3ffu) << 13);
  } else {
    bits = sign;
  }
  return std::bit_cast<float>(bits);
}

std::uint16_t FloatToHalf(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (std::isnan(value)) return sign | 0x7e00u;
  if (magnitude >= 65520.0f) return sign | 0x7c00u;  // rounds to infinity
  if (magnitude < 6.103515625e-05f) {                // denormal or zero: fixed step 2^-24
    const float scaled = magnitude * 16777216.0f;
    return sign | static_cast<std::uint16_t>(std::nearbyint(scaled));
  }
  const std::uint32_t abs_bits = bits & 0x7fffffffu;
  std::uint32_t rounded = abs_bits + 0xfffu + ((abs_bits >> 13) & 1u);
  return sign | static_cast<std::uint16_t>(((rounded >> 13) - (112u << 10)) & 0x7fffu);
}

float Bfloat16ToFloat(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

std::uint16_t FloatToBfloat16(float value) {
  if (std::isnan(value))
    return static_cast<std::uint16_t>((std::bit_cast<std::uint32_t>(value) >> 16) | 0x40u);
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

template <typename T>
T Saturate(double value) {
  if (std::isnan(value)) return 0;
  const double truncated = std::trunc(value);
  if (truncated <= static_cast<double>(std::numeric_limits<T>::lowest()))
    return std::numeric_limits<T>::lowest();
  if (truncated >= static_cast<double>(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return static_cast<T>(truncated);
}

template <typename T>
T Load(const std::uint8_t* data, std::int64_t index) {
  T value;
  std::memcpy(&value, data + index * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
  return value;
}

template <typename T>
void Store(std::uint8_t* data, std::int64_t index, T value) {
  std::memcpy(data + index * static_cast<std::int64_t>(sizeof(T)), &value, sizeof(T));
}

// The integer dtype a quantized dtype is stored as; any other dtype is itself.
TF_DataType QuantizedStorage(TF_DataType dtype) {
  switch (dtype) {
    case TF_QINT8: return TF_INT8;
    case TF_QUINT8: return TF_UINT8;
    case TF_QINT16: return TF_INT16;
    case TF_QUINT16: return TF_UINT16;
    case TF_QINT32: return TF_INT32;
    default: return dtype;
  }
}

// Maps a float's bits onto a line where adjacent representable values are adjacent integers.
std::int64_t Ordered(std::int64_t bits, int width) {
  const std::int64_t sign_bit = std::int64_t{1} << (width - 1);
  return (bits & sign_bit) != 0 ? -(bits & (sign_bit - 1)) : bits;
}

}  // namespace

std::optional<TF_DataType> DtypeFromName(std::string_view name) {
  for (const Named& n : AllNames()) {
    if (name == n.name) return n.dtype;
  }
  return std::nullopt;
}

std::string DtypeName(TF_DataType dtype) {
  for (const Named& n : AllNames()) {
    if (dtype == n.dtype) return n.name;
  }
  return "dtype" + std::to_string(static_cast<int>(dtype));
}

const std::vector<std::string>& ScenarioDtypeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const Named& n : AllNames()) all.emplace_back(n.name);
    return all;
  }();
  return names;
}

bool IsFloating(TF_DataType dtype) {
  return dtype == TF_FLOAT || dtype == TF_DOUBLE || dtype == TF_HALF || dtype == TF_BFLOAT16;
}

bool IsUnsigned(TF_DataType dtype) {
  return dtype == TF_UINT8 || dtype == TF_UINT16 || dtype == TF_UINT32 || dtype == TF_UINT64 ||
         dtype == TF_BOOL || dtype == TF_QUINT8 || dtype == TF_QUINT16;
}

bool IsQuantized(TF_DataType dtype) { return QuantizedStorage(dtype) != dtype; }

std::size_t ElementSize(TF_DataType dtype) {
  switch (dtype) {
    case TF_BOOL:
    case TF_INT8:
    case TF_UINT8:
    case TF_QINT8:
    case TF_QUINT8: return 1;
    case TF_HALF:
    case TF_BFLOAT16:
    case TF_INT16:
    case TF_UINT16:
    case TF_QINT16:
    case TF_QUINT16: return 2;
    case TF_FLOAT:
    case TF_INT32:
    case TF_UINT32:
    case TF_QINT32: return 4;
    case TF_DOUBLE:
    case TF_INT64:
    case TF_UINT64:
    case TF_COMPLEX64: return 8;
    case TF_COMPLEX128: return 16;
    default: return 0;
  }
}

double ReadElement(TF_DataType dtype, const std::uint8_t* data, std::int64_t index) {
  switch (QuantizedStorage(dtype)) {
    case TF_FLOAT: return Load<float>(data, index);
    case TF_DOUBLE: return Load<double>(data, index);
    case TF_HALF: return HalfToFloat(Load<std::uint16_t>(data, index));
    case TF_BFLOAT16: return Bfloat16ToFloat(Load<std::uint16_t>(data, index));
    case TF_INT8: return Load<std::int8_t>(data, index);
    case TF_INT16: return Load<std::int16_t>(data, index);
    case TF_INT32: return Load<std::int32_t>(data, index);
    case TF_INT64: return static_cast<double>(Load<std::int64_t>(data, index));
    case TF_UINT8: return Load<std::uint8_t>(data, index);
    case TF_UINT16: return Load<std::uint16_t>(data, index);
    case TF_UINT32: return Load<std::uint32_t>(data, index);
    case TF_UINT64: return static_cast<double>(Load<std::uint64_t>(data, index));
    case TF_BOOL: return Load<std::uint8_t>(data, index) != 0 ? 1.0 : 0.0;
    // The real part: complex_values.h reads both.
    case TF_COMPLEX64: return Load<float>(data, 2 * index);
    case TF_COMPLEX128: return Load<double>(data, 2 * index);
    default: return 0.0;
  }
}

void WriteElement(TF_DataType dtype, std::uint8_t* data, std::int64_t index, double value) {
  switch (QuantizedStorage(dtype)) {
    case TF_FLOAT: Store(data, index, static_cast<float>(value)); break;
    case TF_DOUBLE: Store(data, index, value); break;
    case TF_HALF: Store(data, index, FloatToHalf(static_cast<float>(value))); break;
    case TF_BFLOAT16: Store(data, index, FloatToBfloat16(static_cast<float>(value))); break;
    case TF_INT8: Store(data, index, Saturate<std::int8_t>(value)); break;
    case TF_INT16: Store(data, index, Saturate<std::int16_t>(value)); break;
    case TF_INT32: Store(data, index, Saturate<std::int32_t>(value)); break;
    case TF_INT64: Store(data, index, Saturate<std::int64_t>(value)); break;
    case TF_UINT8: Store(data, index, Saturate<std::uint8_t>(value)); break;
    case TF_UINT16: Store(data, index, Saturate<std::uint16_t>(value)); break;
    case TF_UINT32: Store(data, index, Saturate<std::uint32_t>(value)); break;
    case TF_UINT64: Store(data, index, Saturate<std::uint64_t>(value)); break;
    case TF_BOOL: Store<std::uint8_t>(data, index, value != 0.0 ? 1 : 0); break;
    // A real number: imaginary part 0.
    case TF_COMPLEX64:
      Store(data, 2 * index, static_cast<float>(value));
      Store(data, 2 * index + 1, 0.0f);
      break;
    case TF_COMPLEX128:
      Store(data, 2 * index, value);
      Store(data, 2 * index + 1, 0.0);
      break;
    default: break;
  }
}

std::uint64_t UlpDistance(TF_DataType dtype, double a, double b) {
  if (a == b) return 0;
  std::int64_t x = 0, y = 0;
  int width = 64;
  switch (dtype) {
    case TF_DOUBLE:
      x = std::bit_cast<std::int64_t>(a);
      y = std::bit_cast<std::int64_t>(b);
      break;
    case TF_FLOAT:
      width = 32;
      x = std::bit_cast<std::uint32_t>(static_cast<float>(a));
      y = std::bit_cast<std::uint32_t>(static_cast<float>(b));
      break;
    case TF_HALF:
      width = 16;
      x = FloatToHalf(static_cast<float>(a));
      y = FloatToHalf(static_cast<float>(b));
      break;
    case TF_BFLOAT16:
      width = 16;
      x = FloatToBfloat16(static_cast<float>(a));
      y = FloatToBfloat16(static_cast<float>(b));
      break;
    default: return std::numeric_limits<std::uint64_t>::max();
  }
  if (width == 64) {
    // Two's-complement tricks overflow at 64 bits; go through the ordered halves.
    const double lo = std::min(a, b), hi = std::max(a, b);
    std::uint64_t steps = 0;
    for (double v = lo; v < hi && steps < 1'000'000; ++steps) v = std::nextafter(v, hi);
    return steps;
  }
  const std::int64_t d = Ordered(x, width) - Ordered(y, width);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

std::optional<double> SpecialValue(TF_DataType dtype, std::string_view name) {
  // A complex dtype's are its parts' (a scenario's values list parts: complex_values.h).
  if (dtype == TF_COMPLEX64) return SpecialValue(TF_FLOAT, name);
  if (dtype == TF_COMPLEX128) return SpecialValue(TF_DOUBLE, name);
  const bool floating = IsFloating(dtype);
  double max = 0, lowest = 0, denorm = 1;
  switch (QuantizedStorage(dtype)) {
    case TF_FLOAT:
      max = std::numeric_limits<float>::max();
      denorm = std::numeric_limits<float>::denorm_min();
      break;
    case TF_DOUBLE:
      max = std::numeric_limits<double>::max();
      denorm = std::numeric_limits<double>::denorm_min();
      break;
    case TF_HALF:
      max = 65504.0;
      denorm = 5.960464477539063e-08;
      break;
    case TF_BFLOAT16:
      max = 3.3895313892515355e+38;
      denorm = 9.183549615799121e-41;
      break;
    case TF_INT8:
      max = 127;
      lowest = -128;
      break;
    case TF_INT16:
      max = 32767;
      lowest = -32768;
      break;
    case TF_INT32:
      max = 2147483647.0;
      lowest = -2147483648.0;
      break;
    case TF_INT64:
      max = 9223372036854775807.0;
      lowest = -9223372036854775808.0;
      break;
    case TF_UINT8: max = 255; break;
    case TF_UINT16: max = 65535; break;
    case TF_UINT32: max = 4294967295.0; break;
    case TF_UINT64: max = 18446744073709551615.0; break;
    case TF_BOOL: max = 1; break;
    default: return std::nullopt;
  }
  if (floating) lowest = -max;
  if (name == "max") return max;
  if (name == "lowest") return lowest;
  if (name == "denorm_min") return denorm;
  if (name == "-denorm_min") return floating ? -denorm : lowest;
  if (!floating) return std::nullopt;  // nan and infinities do not exist for integers
  if (name == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (name == "inf") return std::numeric_limits<double>::infinity();
  if (name == "-inf") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

const std::vector<std::string>& SpecialValueNames() {
  static const std::vector<std::string> names = {"nan",    "inf",        "-inf",       "max",
                                                 "lowest", "denorm_min", "-denorm_min"};
  return names;
}

}  // namespace conformance::kernels
