#include "core/proto_wire.h"

namespace conformance::core {

void ProtoWriter::AppendVarint(uint64_t value) {
  while (value >= 0x80) {
    data_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  data_.push_back(static_cast<char>(value));
}

void ProtoWriter::AppendFixed32(uint32_t value) {
  for (int i = 0; i < 4; ++i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void ProtoWriter::Tag(uint32_t field, uint32_t wire_type) {
  AppendVarint((static_cast<uint64_t>(field) << 3) | wire_type);
}

void ProtoWriter::Varint(uint32_t field, uint64_t value) {
  Tag(field, ProtoReader::kVarint);
  AppendVarint(value);
}

void ProtoWriter::Fixed32(uint32_t field, uint32_t value) {
  Tag(field, ProtoReader::kFixed32);
  AppendFixed32(value);
}

void ProtoWriter::Bytes(uint32_t field, std::string_view bytes) {
  Tag(field, ProtoReader::kLengthDelimited);
  AppendVarint(bytes.size());
  data_.append(bytes);
}

bool ProtoReader::ReadVarint(std::string_view* data, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (data->empty()) return false;
    const auto byte = static_cast<unsigned char>(data->front());
    data->remove_prefix(1);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;  // more than 10 bytes
}

bool ProtoReader::Next(Field* field) {
  if (!ok_ || data_.empty()) return false;
  uint64_t tag = 0;
  if (!ReadVarint(&data_, &tag) || (tag >> 3) == 0 || (tag >> 3) > 0x1fffffff) {
    ok_ = false;
    return false;
  }
  field->number = static_cast<uint32_t>(tag >> 3);
  field->wire_type = static_cast<uint32_t>(tag & 7);
  field->value = 0;
  field->bytes = {};
  switch (field->wire_type) {
    case kVarint: ok_ = ReadVarint(&data_, &field->value); break;
    case kFixed64:
    case kFixed32: {
      const std::size_t n = field->wire_type == kFixed64 ? 8 : 4;
      if (data_.size() < n) {
        ok_ = false;
        break;
      }
      for (std::size_t i = 0; i < n; ++i) {
        field->value |= static_cast<uint64_t>(static_cast<unsigned char>(data_[i])) << (8 * i);
      }
      data_.remove_prefix(n);
      break;
    }
    case kLengthDelimited: {
      uint64_t length = 0;
      if (!ReadVarint(&data_, &length) || length > data_.size()) {
        ok_ = false;
        break;
      }
      field->bytes = data_.substr(0, static_cast<std::size_t>(length));
      data_.remove_prefix(static_cast<std::size_t>(length));
      break;
    }
    default: ok_ = false;  // groups and reserved wire types
  }
  return ok_;
}

bool IsValidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra;
    uint32_t code;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xe0) == 0xc0) {
      extra = 1;
      code = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2;
      code = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3;
      code = c & 0x07;
    } else
      return false;
    if (i + extra >= text.size()) return false;  // truncated sequence
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      code = (code << 6) | (cc & 0x3f);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    static const uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMin[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace conformance::core
