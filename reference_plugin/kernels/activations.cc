// Point-wise activations: Relu, Relu6, Elu, Sigmoid, Tanh. (Softmax and LogSoftmax work on
// whole rows: softmax.cc.) NaN inputs give NaN, as in TensorFlow.
#include <cmath>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"
#include "kernels/unary_kernel.h"

namespace reference_plugin::kernels {
namespace {

struct ReluFn {
  template <typename A>
  A operator()(A x) const {
    return x < A{0} ? A{0} : x;
  }
};
struct Relu6Fn {
  template <typename A>
  A operator()(A x) const {
    if (x < A{0}) return A{0};
    return A{6} < x ? A{6} : x;
  }
};
// exp(x) - 1 with exp(x) rounded to T first, as TensorFlow's CPU kernel computes it for half
// and bfloat16 (not expm1: TensorFlow's Elu loses the same bits near 0).
template <typename T>
struct EluFn {
  template <typename A>
  A operator()(A x) const {
    return x < A{0} ? round_to<T>(std::exp(x)) - A{1} : x;
  }
};
struct SigmoidFn {
  template <typename A>
  A operator()(A x) const {
    return A{1} / (A{1} + std::exp(-x));
  }
};
struct TanhFn {
  template <typename A>
  A operator()(A x) const {
    return std::tanh(x);
  }
};

template <typename T>
using ReluKernel = UnaryKernel<T, ReluFn>;
template <typename T>
using Relu6Kernel = UnaryKernel<T, Relu6Fn>;
template <typename T>
using EluKernel = UnaryKernel<T, EluFn<T>>;
template <typename T>
using SigmoidKernel = UnaryKernel<T, SigmoidFn>;
template <typename T>
using TanhKernel = UnaryKernel<T, TanhFn>;

}  // namespace

Status register_activation_kernels() {
  Status first;
  keep_first_error(first, register_for_types<ReluKernel>("Relu", NumericTypes{}));
  keep_first_error(first, register_for_types<Relu6Kernel>("Relu6", NumericTypes{}));
  keep_first_error(first, register_for_types<EluKernel>("Elu", FloatTypes{}));
  keep_first_error(first, register_for_types<SigmoidKernel>("Sigmoid", FloatTypes{}));
  keep_first_error(first, register_for_types<TanhKernel>("Tanh", FloatTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
