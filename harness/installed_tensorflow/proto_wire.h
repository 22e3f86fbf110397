#pragma once
// Just enough of protobuf's wire format for the driver to read what TensorFlow's C API hands
// back serialized (KernelList, RunMetadata) without linking protobuf.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tensorflow_driver {

// Each field is a key (number << 3 | wire type) and a varint, a length-delimited run, or 4 or 8
// bytes.
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool Next(int& field, int& wire_type) {
    if (position_ >= bytes_.size()) return false;
    const std::uint64_t key = Varint();
    field = static_cast<int>(key >> 3);
    wire_type = static_cast<int>(key & 7);
    return ok_;
  }
  bool AtEnd() const { return !ok_ || position_ >= bytes_.size(); }
  std::uint64_t Varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64 && position_ < bytes_.size(); shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes_[position_++]);
      value |= std::uint64_t{byte & 0x7fU} << shift;
      if ((byte & 0x80U) == 0) return value;
    }
    ok_ = false;
    return value;
  }
  std::string_view Bytes() {
    const std::uint64_t length = Varint();
    if (!ok_ || length > bytes_.size() - position_) {
      ok_ = false;
      position_ = bytes_.size();
      return {};
    }
    const std::string_view run = bytes_.substr(position_, length);
    position_ += length;
    return run;
  }
  void Skip(int wire_type) {
    if (wire_type == 0) {
      Varint();
    } else if (wire_type == 2) {
      Bytes();
    } else {
      position_ += wire_type == 1 ? 8 : 4;
    }
  }

 private:
  std::string_view bytes_;
  std::size_t position_ = 0;
  bool ok_ = true;
};

}  // namespace tensorflow_driver
