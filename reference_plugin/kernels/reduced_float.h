#pragma once
// The two 16-bit floating-point formats TensorFlow computes with, as plain storage types.
//
//   Half      IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits (TF_HALF)
//   BFloat16  the top half of a binary32: 1 sign, 8 exponent, 7 mantissa bits (TF_BFLOAT16)
//
// Kernels never do arithmetic on these types: they widen to float, compute, and narrow the
// result once. Narrowing rounds to nearest, ties to even, as TensorFlow (Eigen) does; NaN stays
// NaN (quiet, sign kept) and values beyond the range become infinities.
#include <bit>
#include <cstdint>

namespace reference_plugin::kernels {

struct Half {
  uint16_t bits = 0;

  static constexpr Half from_bits(uint16_t b) { return Half{b}; }
  static Half from_float(float value);
  float to_float() const;
};

struct BFloat16 {
  uint16_t bits = 0;

  static constexpr BFloat16 from_bits(uint16_t b) { return BFloat16{b}; }
  static BFloat16 from_float(float value);
  float to_float() const { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }
};

inline BFloat16 BFloat16::from_float(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const uint32_t sign = f & 0x80000000u;
  if ((f & 0x7fffffffu) > 0x7f800000u)
    return from_bits(static_cast<uint16_t>((sign >> 16) | 0x7fc0u));
  // Adding 0x7fff plus the lowest kept bit carries into the kept bits exactly when the dropped
  // half is above one half ulp, or equal to it with an odd kept part: round half to even.
  const uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return from_bits(static_cast<uint16_t>((f + rounding) >> 16));
}

inline Half Half::from_float(float value) {
  const uint32_t f = std::bit_cast<uint32_t>(value);
  const auto sign = static_cast<uint16_t>((f >> 16) & 0x8000u);
  const uint32_t magnitude = f & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return from_bits(sign | 0x7e00u);   // NaN
  if (magnitude >= 0x477ff000u) return from_bits(sign | 0x7c00u);  // >= 65520: overflow to inf
  const int exponent = static_cast<int>(magnitude >> 23) - 127;
  if (exponent < -25) return from_bits(sign);               // below half the least subnormal
  uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;  // with the implicit bit
  // Normal halves keep 10 of the 23 fraction bits; subnormals (exponent < -14) keep fewer.
  const int shift = exponent < -14 ? 13 + (-14 - exponent) : 13;
  const uint32_t kept = mantissa >> shift;
  const uint32_t dropped = mantissa & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1);
  uint32_t rounded = kept + ((dropped > halfway || (dropped == halfway && (kept & 1u))) ? 1u : 0u);
  if (exponent < -14)
    return from_bits(
        static_cast<uint16_t>(sign | rounded));  // carry may make it normal: still right
  // Normal: biased exponent plus the 10-bit fraction; a mantissa carry bumps the exponent.
  const uint32_t biased = static_cast<uint32_t>(exponent + 15);
  return from_bits(static_cast<uint16_t>(sign | ((biased << 10) + (rounded - 0x400u))));
}

inline float Half::to_float() const {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t fraction = bits & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));
  if (exponent == 0) {
    // Subnormal (or zero): fraction * 2^-24, exact in float.
    const float magnitude = static_cast<float>(fraction) * 0x1p-24f;
    return sign != 0 ? -magnitude : magnitude;
  }
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (fraction << 13));
}

}  // namespace reference_plugin::kernels
