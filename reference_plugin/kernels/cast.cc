// Cast: y = DstT(x) for SrcT, DstT among the reference types (bool included).
//
// Conversions follow TensorFlow (Eigen) on x86:
//   - to half/bfloat16: through float, rounded to nearest even;
//   - float to integer: truncation toward zero; NaN and out-of-range values give the
//     integer's lowest value (what the x86 conversion instructions produce);
//   - to bool: x != 0; from bool: 0 or 1;
//   - Truncate = true: a narrowing float conversion drops the source's extra mantissa bits
//     first, so the value is truncated toward zero instead of rounded.
// SrcT == DstT forwards the input unchanged.
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

template <typename T>
constexpr int mantissa_bits() {
  if constexpr (std::is_same_v<T, double>) return 52;
  if constexpr (std::is_same_v<T, float>) return 23;
  if constexpr (std::is_same_v<T, Half>) return 10;
  if constexpr (std::is_same_v<T, BFloat16>) return 7;
  return 0;  // not a floating type
}

// Clears the mantissa bits that To cannot hold, leaving sign and exponent alone (NaN
// payloads are kept so a NaN stays NaN).
template <typename From, typename To>
From drop_extra_mantissa_bits(From value) {
  constexpr int drop = mantissa_bits<From>() - mantissa_bits<To>();
  if constexpr (mantissa_bits<To>() == 0 || drop <= 0) {
    return value;
  } else if constexpr (kIsReducedFloat<From>) {
    if (std::isnan(value.to_float())) return value;
    return From::from_bits(static_cast<uint16_t>(value.bits & ~((1u << drop) - 1u)));
  } else {
    if (std::isnan(value)) return value;
    using Bits = std::conditional_t<sizeof(From) == 8, uint64_t, uint32_t>;
    const Bits bits = std::bit_cast<Bits>(value) & ~((Bits{1} << drop) - 1);
    return std::bit_cast<From>(bits);
  }
}

template <typename To, typename From>
To convert(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return widen(value) != ComputeType<From>{0};
  } else if constexpr (std::is_same_v<From, bool>) {
    return narrow<To>(static_cast<ComputeType<To>>(value ? 1 : 0));
  } else if constexpr (kIsReducedFloat<To>) {
    return To::from_float(static_cast<float>(widen(value)));
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    const auto x = static_cast<double>(widen(value));
    // Range check in double: both bounds are exact powers of two there.
    constexpr double kUpper = -static_cast<double>(std::numeric_limits<To>::min());
    if (std::isnan(x) || x >= kUpper || x < -kUpper) return std::numeric_limits<To>::min();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(widen(value));  // integer to integer wraps (C++20: modular)
  }
}

template <typename Src, typename Dst>
class CastKernel : public OpKernel {
 public:
  CastKernel(AttrReader& attrs, Status* status) {
    if (attrs.has("Truncate")) *status = attrs.get("Truncate", &truncate_);
  }

  Status compute(OpContext& ctx) override {
    TensorRef x, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    if constexpr (std::is_same_v<Src, Dst>) return ctx.set_output(0, x);
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<Dst>, x.shape(), &y));
    return ctx.enqueue([in = x.data<const Src>(), out = y.data<Dst>(), n = x.num_elements(),
                        truncate = truncate_] {
      for (int64_t i = 0; i < n; ++i) {
        const Src v = truncate ? drop_extra_mantissa_bits<Src, Dst>(in[i]) : in[i];
        out[i] = convert<Dst>(v);
      }
    });
  }

 private:
  bool truncate_ = false;
};

}  // namespace

Status register_cast_kernels() {
  return register_for_type_pairs<CastKernel>("Cast", AllTypes{}, "SrcT", AllTypes{}, "DstT");
}

}  // namespace reference_plugin::kernels
