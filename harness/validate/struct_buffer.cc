#include "validate/struct_buffer.h"

#include <algorithm>

namespace conformance::validate {

StructBuffer::StructBuffer(const StructLayout& layout)
    : layout_(&layout), bytes_(layout.size_of + kGuardBytes) {
  FillLikeTensorFlow();
}

void StructBuffer::FillLikeTensorFlow() {
  std::fill(bytes_.begin(), bytes_.begin() + layout_->size_of, std::byte{0});
  std::fill(bytes_.begin() + layout_->size_of, bytes_.end(), kGuardByte);
  Set<std::uint64_t>("struct_size", layout_->struct_size_value);
}

void StructBuffer::FillWithPoisonedSize(std::uint64_t poison) {
  FillLikeTensorFlow();
  Set<std::uint64_t>("struct_size", poison);
}

void* StructBuffer::Pointer(std::string_view field) const {
  if (!layout_->HasField(field)) return nullptr;
  return Get<void*>(field);
}

std::size_t StructBuffer::BytesWrittenPastEnd() const {
  for (std::size_t i = bytes_.size(); i > layout_->size_of; --i) {
    if (bytes_[i - 1] != kGuardByte) return i - layout_->size_of;
  }
  return 0;
}

bool StructBuffer::ZeroWrittenPastEnd() const {
  const auto begin = bytes_.begin() + static_cast<std::ptrdiff_t>(layout_->size_of);
  const auto end = begin + static_cast<std::ptrdiff_t>(BytesWrittenPastEnd());
  return std::find(begin, end, std::byte{0}) != end;
}

}  // namespace conformance::validate
