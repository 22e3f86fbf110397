#pragma once
// Just enough of the protobuf wire format for the graph optimizer and the profiler: read the
// fields of one message, write varint and length-delimited fields. The plugin links no
// protobuf runtime on purpose: TensorFlow's process already has one, and a second copy in a
// plugin clashes with it (duplicate descriptors). Field numbers come from TensorFlow's .proto
// files (graph.proto, node_def.proto, xplane.proto).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace reference_plugin::wire {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  uint64_t varint = 0;     // kVarint
  std::string_view bytes;  // kLengthDelimited payload
  std::string_view raw;    // the whole field, tag included, for copying it unchanged
};

// Splits `message` into its fields; false when the bytes are not a well-formed message
// (groups are refused: no message the plugin reads has them).
bool parse_fields(std::string_view message, std::vector<Field>* fields);

void put_varint(std::string* out, uint64_t value);
void put_varint_field(std::string* out, uint32_t number, uint64_t value);
void put_bytes_field(std::string* out, uint32_t number, std::string_view bytes);

}  // namespace reference_plugin::wire
