// Neg, Abs, Exp, Log, Sqrt, Rsqrt, Square.
#include <cmath>
#include <type_traits>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"
#include "kernels/unary_kernel.h"

namespace reference_plugin::kernels {
namespace {

// Floating point: IEEE negation flips the sign bit (Neg(0) is -0, Neg(NaN) flips the NaN's
// sign), as TensorFlow does; 0 - x would give +0. Integers wrap (Neg(lowest) is lowest).
struct NegFn {
  template <typename A>
  A operator()(A x) const {
    if constexpr (std::is_floating_point_v<A>) {
      return -x;
    } else {
      return wrapping_sub(A{0}, x);
    }
  }
};
struct AbsFn {
  // Integer Abs of the most negative value wraps to itself, as in TensorFlow.
  template <typename A>
  A operator()(A x) const {
    if constexpr (std::is_integral_v<A>) {
      return x < 0 ? wrapping_sub(A{0}, x) : x;
    } else {
      return std::fabs(x);
    }
  }
};
struct ExpFn {
  template <typename A>
  A operator()(A x) const {
    return std::exp(x);
  }
};
struct LogFn {
  template <typename A>
  A operator()(A x) const {
    return std::log(x);
  }
};
struct SqrtFn {
  template <typename A>
  A operator()(A x) const {
    return std::sqrt(x);
  }
};
struct RsqrtFn {
  template <typename A>
  A operator()(A x) const {
    return A{1} / std::sqrt(x);
  }
};
struct SquareFn {
  template <typename A>
  A operator()(A x) const {
    return wrapping_mul(x, x);
  }
};

template <typename T>
using NegKernel = UnaryKernel<T, NegFn>;
template <typename T>
using AbsKernel = UnaryKernel<T, AbsFn>;
template <typename T>
using ExpKernel = UnaryKernel<T, ExpFn>;
template <typename T>
using LogKernel = UnaryKernel<T, LogFn>;
template <typename T>
using SqrtKernel = UnaryKernel<T, SqrtFn>;
template <typename T>
using RsqrtKernel = UnaryKernel<T, RsqrtFn>;
template <typename T>
using SquareKernel = UnaryKernel<T, SquareFn>;

}  // namespace

Status register_unary_math_kernels() {
  Status first;
  keep_first_error(first, register_for_types<NegKernel>("Neg", NumericTypes{}));
  keep_first_error(first, register_for_types<AbsKernel>("Abs", NumericTypes{}));
  keep_first_error(first, register_for_types<ExpKernel>("Exp", FloatTypes{}));
  keep_first_error(first, register_for_types<LogKernel>("Log", FloatTypes{}));
  keep_first_error(first, register_for_types<SqrtKernel>("Sqrt", FloatTypes{}));
  keep_first_error(first, register_for_types<RsqrtKernel>("Rsqrt", FloatTypes{}));
  keep_first_error(first, register_for_types<SquareKernel>("Square", NumericTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
