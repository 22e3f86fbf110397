#pragma once
// A struct handed to the plugin, as the emulated core lays it out: a byte buffer of the
// generation's sizeof, followed by a guard zone that detects a plugin built against newer
// (larger) headers writing past the end.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "validate/abi_layout.h"

namespace conformance::validate {

class StructBuffer {
 public:
  static constexpr std::size_t kGuardBytes = 256;
  static constexpr std::byte kGuardByte{0xA5};

  explicit StructBuffer(const StructLayout& layout);

  // TensorFlow's aggregate initialisation: struct_size = *_STRUCT_SIZE, everything else 0.
  void FillLikeTensorFlow();
  // Same, but struct_size = `poison`, so a plugin that never writes it is caught.
  void FillWithPoisonedSize(std::uint64_t poison);

  void* data() { return bytes_.data(); }
  const void* data() const { return bytes_.data(); }
  const StructLayout& layout() const { return *layout_; }

  template <typename T>
  T Get(std::string_view field) const {
    T value;
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(&value, bytes_.data() + layout_->Field(field).offset, sizeof(T));
    return value;
  }
  template <typename T>
  void Set(std::string_view field, T value) {
    std::memcpy(bytes_.data() + layout_->Field(field).offset, &value, sizeof(T));
  }
  // A field read as a pointer (function or data); nullptr when the generation lacks it.
  void* Pointer(std::string_view field) const;
  std::uint64_t StructSize() const { return Get<std::uint64_t>("struct_size"); }

  // Number of guard bytes the plugin overwrote past sizeof (0 when none).
  std::size_t BytesWrittenPastEnd() const;
  // Whether a byte among those BytesWrittenPastEnd() counts is zero: what TensorFlow does with
  // an overrun can depend on the value (a zero struct_size past the struct is refused).
  bool ZeroWrittenPastEnd() const;

 private:
  const StructLayout* layout_;
  std::vector<std::byte> bytes_;
};

// Calls a plugin function pointer read from a buffer with the signature of the header.
template <typename Fn>
Fn AsFunction(void* pointer) {
  return reinterpret_cast<Fn>(pointer);
}

}  // namespace conformance::validate
