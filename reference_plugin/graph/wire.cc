#include "graph/wire.h"

namespace reference_plugin::wire {
namespace {

bool read_varint(std::string_view* data, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (data->empty()) return false;
    const auto byte = static_cast<uint8_t>(data->front());
    data->remove_prefix(1);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

bool parse_fields(std::string_view message, std::vector<Field>* fields) {
  fields->clear();
  std::string_view rest = message;
  while (!rest.empty()) {
    const char* start = rest.data();
    uint64_t tag = 0;
    if (!read_varint(&rest, &tag) || (tag >> 3) == 0) return false;
    Field field;
    field.number = static_cast<uint32_t>(tag >> 3);
    field.wire_type = static_cast<uint32_t>(tag & 7);
    switch (field.wire_type) {
      case kVarint:
        if (!read_varint(&rest, &field.varint)) return false;
        break;
      case kFixed64:
      case kFixed32: {
        const std::size_t size = field.wire_type == kFixed64 ? 8 : 4;
        if (rest.size() < size) return false;
        rest.remove_prefix(size);
        break;
      }
      case kLengthDelimited: {
        uint64_t size = 0;
        if (!read_varint(&rest, &size) || size > rest.size()) return false;
        field.bytes = rest.substr(0, size);
        rest.remove_prefix(size);
        break;
      }
      default: return false;
    }
    field.raw = std::string_view(start, static_cast<std::size_t>(rest.data() - start));
    fields->push_back(field);
  }
  return true;
}

void put_varint(std::string* out, uint64_t value) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void put_varint_field(std::string* out, uint32_t number, uint64_t value) {
  put_varint(out, (static_cast<uint64_t>(number) << 3) | kVarint);
  put_varint(out, value);
}

void put_bytes_field(std::string* out, uint32_t number, std::string_view bytes) {
  put_varint(out, (static_cast<uint64_t>(number) << 3) | kLengthDelimited);
  put_varint(out, bytes.size());
  out->append(bytes);
}

}  // namespace reference_plugin::wire
