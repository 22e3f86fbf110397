#pragma once
// Struct layouts of one TensorFlow header generation, read from the golden files in
// specs/abi/ (measured by compiling TensorFlow's own headers). The harness hands plugins
// byte buffers laid out exactly like the emulated core's structs and reads fields back by
// offset, so one code path serves every generation.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace conformance::validate {

struct FieldLayout {
  std::string name;
  std::size_t offset = 0;
  std::size_t size = 0;
};

struct StructLayout {
  std::string name;
  std::size_t size_of = 0;
  std::size_t struct_size_value = 0;  // the header's *_STRUCT_SIZE
  std::vector<FieldLayout> fields;

  const FieldLayout& Field(std::string_view field) const;  // throws std::out_of_range
  bool HasField(std::string_view field) const;
};

struct AbiLayout {
  std::string file;  // e.g. tf_layout_28d8b176.json
  std::map<std::string, StructLayout, std::less<>> structs;

  const StructLayout& Struct(std::string_view name) const;  // throws std::out_of_range
};

// Layouts of every struct in one golden file (stream_executor.h, grappler.h or
// pluggable_profiler.h generations, or the combined newest file).
const AbiLayout& LayoutFile(std::string_view file);

}  // namespace conformance::validate
