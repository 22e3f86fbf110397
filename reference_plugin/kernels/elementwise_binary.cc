// AddV2, Sub, Mul, RealDiv, Maximum, Minimum, SquaredDifference: z = f(x, y) element by
// element, with NumPy broadcasting. 16-bit floats are computed in float and rounded once;
// integers wrap around on overflow, as in TensorFlow.
#include <cmath>
#include <type_traits>

#include "kernels/broadcast.h"
#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

struct AddFn {
  template <typename A>
  A operator()(A x, A y) const {
    return wrapping_add(x, y);
  }
};
struct SubFn {
  template <typename A>
  A operator()(A x, A y) const {
    return wrapping_sub(x, y);
  }
};
struct MulFn {
  template <typename A>
  A operator()(A x, A y) const {
    return wrapping_mul(x, y);
  }
};
struct RealDivFn {
  template <typename A>
  A operator()(A x, A y) const {
    return x / y;
  }
};
// TensorFlow's Maximum and Minimum propagate NaN: if either operand is NaN, so is the result.
struct MaximumFn {
  template <typename A>
  A operator()(A x, A y) const {
    if constexpr (std::is_floating_point_v<A>) {
      if (std::isnan(x)) return x;
      if (std::isnan(y)) return y;
    }
    return x < y ? y : x;
  }
};
struct MinimumFn {
  template <typename A>
  A operator()(A x, A y) const {
    if constexpr (std::is_floating_point_v<A>) {
      if (std::isnan(x)) return x;
      if (std::isnan(y)) return y;
    }
    return y < x ? y : x;
  }
};
// The difference is rounded to T before it is squared, as TensorFlow's CPU kernel does for half
// and bfloat16 (two roundings: squaring the exact difference differs by up to 2 ulp).
template <typename T>
struct SquaredDifferenceFn {
  template <typename A>
  A operator()(A x, A y) const {
    const A d = round_to<T>(wrapping_sub(x, y));
    return wrapping_mul(d, d);
  }
};

template <typename T, typename Fn>
class BinaryKernel : public OpKernel {
 public:
  BinaryKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef x, y, z;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &y));
    BroadcastIndex index;
    REFERENCE_RETURN_IF_ERROR(BroadcastIndex::make(x.shape(), y.shape(), &index));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, index.output_shape(), &z));
    return ctx.enqueue([index, xs = x.data<const T>(), ys = y.data<const T>(), zs = z.data<T>()] {
      index.for_each([&](int64_t out, int64_t xi, int64_t yi) {
        zs[out] = narrow<T>(Fn{}(widen(xs[xi]), widen(ys[yi])));
      });
    });
  }
};

template <typename T>
using AddKernel = BinaryKernel<T, AddFn>;
template <typename T>
using SubKernel = BinaryKernel<T, SubFn>;
template <typename T>
using MulKernel = BinaryKernel<T, MulFn>;
template <typename T>
using RealDivKernel = BinaryKernel<T, RealDivFn>;
template <typename T>
using MaximumKernel = BinaryKernel<T, MaximumFn>;
template <typename T>
using MinimumKernel = BinaryKernel<T, MinimumFn>;
template <typename T>
using SquaredDifferenceKernel = BinaryKernel<T, SquaredDifferenceFn<T>>;

}  // namespace

Status register_elementwise_binary_kernels() {
  Status first;
  keep_first_error(first, register_for_types<AddKernel>("AddV2", NumericTypes{}));
  keep_first_error(first, register_for_types<SubKernel>("Sub", NumericTypes{}));
  keep_first_error(first, register_for_types<MulKernel>("Mul", NumericTypes{}));
  // Integer RealDiv would need TensorFlow's division-by-zero error; the float types are what
  // devices run it for.
  keep_first_error(first, register_for_types<RealDivKernel>("RealDiv", FloatTypes{}));
  keep_first_error(first, register_for_types<MaximumKernel>("Maximum", NumericTypes{}));
  keep_first_error(first, register_for_types<MinimumKernel>("Minimum", NumericTypes{}));
  keep_first_error(
      first, register_for_types<SquaredDifferenceKernel>("SquaredDifference", NumericTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
