#pragma once
// Element types of the reference kernels: which C++ type stores each TF_DataType, which type
// the arithmetic runs in, and the lists of types each op family is registered for.
//
// A kernel is a template on its element type (AddKernel<float>, AddKernel<Half>, ...) and is
// registered once per type with a TF_KernelBuilder_TypeConstraint. The type lists below are
// the single source of truth for both: for_each_type<NumericTypes>(...) instantiates and
// registers every kernel of a family.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/reduced_float.h"
#include "tensorflow/c/tf_datatype.h"

namespace reference_plugin::kernels {

template <typename T>
struct DataTypeOf;
template <>
struct DataTypeOf<float> {
  static constexpr TF_DataType value = TF_FLOAT;
};
template <>
struct DataTypeOf<double> {
  static constexpr TF_DataType value = TF_DOUBLE;
};
template <>
struct DataTypeOf<Half> {
  static constexpr TF_DataType value = TF_HALF;
};
template <>
struct DataTypeOf<BFloat16> {
  static constexpr TF_DataType value = TF_BFLOAT16;
};
template <>
struct DataTypeOf<int32_t> {
  static constexpr TF_DataType value = TF_INT32;
};
template <>
struct DataTypeOf<int64_t> {
  static constexpr TF_DataType value = TF_INT64;
};
template <>
struct DataTypeOf<bool> {
  static constexpr TF_DataType value = TF_BOOL;
};

template <typename T>
inline constexpr TF_DataType kDataType = DataTypeOf<T>::value;

// TensorFlow's name of a dtype ("float", "half", "int32", ...), for messages and kernel names.
const char* dtype_name(TF_DataType dtype);

template <typename T>
inline constexpr bool kIsReducedFloat = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The type arithmetic runs in: float for the 16-bit formats, the type itself otherwise.
template <typename T>
using ComputeType = std::conditional_t<kIsReducedFloat<T>, float, T>;

template <typename T>
ComputeType<T> widen(T value) {
  if constexpr (kIsReducedFloat<T>) {
    return value.to_float();
  } else {
    return value;
  }
}

template <typename T>
T narrow(ComputeType<T> value) {
  if constexpr (kIsReducedFloat<T>) {
    return T::from_float(value);
  } else {
    return value;
  }
}

// A value of an intermediate step rounded to T and widened again. TensorFlow's CPU kernels
// evaluate a 16-bit expression one Eigen operation at a time, each result stored as T, so a
// kernel that matches them (SquaredDifference, Elu) rounds where they round.
template <typename T>
ComputeType<T> round_to(ComputeType<T> value) {
  return widen(narrow<T>(value));
}

// Accumulators of sums and dot products: double for every floating type (the reference should
// be the most accurate answer, so a candidate's own summation order stays within tolerance),
// the type itself for integers (which wrap, as in TensorFlow).
template <typename T>
using AccumulatorType = std::conditional_t<std::is_integral_v<T>, T, double>;

// Integer arithmetic wraps around in TensorFlow (two's complement); in C++ signed overflow is
// undefined, so integer kernels compute through the unsigned type.
template <typename T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <typename T>
T wrapping_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <typename T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <typename... Ts>
struct TypeList {};

using FloatTypes = TypeList<float, Half, BFloat16, double>;
using NumericTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t>;
// Ops that only move or fill data work for every type, bool included.
using AllTypes = TypeList<float, Half, BFloat16, double, int32_t, int64_t, bool>;
using IndexTypes = TypeList<int32_t, int64_t>;

// Calls fn.template operator()<T>() for every T of the list, in order.
template <typename... Ts, typename Fn>
void for_each_type(TypeList<Ts...>, Fn&& fn) {
  (fn.template operator()<Ts>(), ...);
}

}  // namespace reference_plugin::kernels
