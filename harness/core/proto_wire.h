#pragma once
// Just enough of the protobuf wire format to write the NodeDef / NameAttrList / AttrValue
// messages the kernel API hands out and to read the KernelDef plugins may register with.
// The project has no protobuf dependency; field numbers come from TensorFlow's .proto
// definitions (facts, not code).
#include <cstdint>
#include <string>
#include <string_view>

namespace conformance::core {

class ProtoWriter {
 public:
  void Varint(uint32_t field, uint64_t value);
  void Fixed32(uint32_t field, uint32_t value);
  void Bytes(uint32_t field, std::string_view bytes);
  void Message(uint32_t field, const ProtoWriter& message) { Bytes(field, message.data()); }
  // Raw payload helpers for packed repeated fields.
  void AppendVarint(uint64_t value);
  void AppendFixed32(uint32_t value);
  const std::string& data() const { return data_; }

 private:
  void Tag(uint32_t field, uint32_t wire_type);
  std::string data_;
};

// Iterates the fields of one message. Unknown fields are the caller's to skip (Next
// already consumed them). Groups (wire types 3/4) and malformed input end iteration with
// ok() == false.
class ProtoReader {
 public:
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };
  struct Field {
    uint32_t number = 0;
    uint32_t wire_type = 0;
    uint64_t value = 0;      // varint / fixed values
    std::string_view bytes;  // length-delimited payload
  };

  explicit ProtoReader(std::string_view data) : data_(data) {}
  bool Next(Field* field);
  bool ok() const { return ok_; }

  // Decodes a varint at the front of `data`, advancing it; false when malformed.
  static bool ReadVarint(std::string_view* data, uint64_t* value);

 private:
  std::string_view data_;
  bool ok_ = true;
};

// proto3 rejects string fields that are not UTF-8 when parsing.
bool IsValidUtf8(std::string_view text);

}  // namespace conformance::core
