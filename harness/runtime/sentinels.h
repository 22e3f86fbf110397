#pragma once
// Poison values written into every out-param and status before the plugin sees it, so that
// "the plugin never wrote it" is visible afterwards. Pointers are non-canonical on x86-64:
// dereferencing one faults at once instead of corrupting memory quietly.
#include <cstdint>
#include <string>
#include <string_view>

#include "tensorflow/c/tf_status.h"

namespace conformance::runtime {

inline constexpr std::uintptr_t kPoisonPointerBits = 0xDEAD5E47DEAD5E47u;
template <typename T>
T PoisonPointer() {
  // A bit pattern the plugin should overwrite, never an object: nothing to optimize through.
  return reinterpret_cast<T>(kPoisonPointerBits);  // NOLINT(performance-no-int-to-ptr)
}
template <typename T>
bool IsPoisonPointer(T pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) == kPoisonPointerBits;
}

inline constexpr std::uint64_t kPoisonU64 = 0x5E5E5E5E5E5E5E5Eu;
inline constexpr std::int64_t kPoisonI64 = 0x5E5E5E5E5E5E5E5E;
inline constexpr int kPoisonInt = -0x5E5E5E5F;  // negative and odd: no device count looks like it
inline constexpr std::int8_t kPoisonBool = 0x5E;

// A poisoned TF_Status: TF_UNKNOWN with this message. If it is still exactly that after the
// call, the plugin did not write it.
inline constexpr TF_Code kPoisonStatusCode = TF_UNKNOWN;
std::string PoisonStatusMessage(std::string_view callback);

}  // namespace conformance::runtime
