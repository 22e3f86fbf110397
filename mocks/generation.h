#pragma once
// The TensorFlow header generation a mock is built as: which SP_StreamExecutor layout and
// SP_Platform struct_size it writes, and which callbacks exist at all. Facts from the golden
// layouts in specs/abi/ (tests/mocks/generation_test.cc compares them with those files).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace conformance::mocks {

enum class Generation {
  kNewest,  // TF 2.9 and later: 288-byte SP_StreamExecutor, mem_zero/memset/memset32
  kTf2_7,   // TF 2.7 and 2.8: the same executor, SP_Platform ends at use_bfc_allocator (34)
  kTf2_5,   // TF 2.5 and 2.6: 264 bytes, host_callback at 256, SP_Platform 34
};

struct GenerationFacts {
  std::string_view name;             // as --profile spells it: newest, tf2.7, tf2.5
  std::size_t stream_executor_size;  // SP_STREAMEXECUTOR_STRUCT_SIZE
  std::size_t host_callback_offset;  // where host_callback lives in SP_StreamExecutor
  bool has_memset_family;            // mem_zero, memset, memset32 exist
  std::size_t platform_struct_size;  // SP_PLATFORM_STRUCT_SIZE
};

const GenerationFacts& Facts(Generation generation);
// "newest", "tf2.10" (same headers as newest), "tf2.7", "tf2.5"; nullopt otherwise.
std::optional<Generation> ParseGeneration(std::string_view name);

}  // namespace conformance::mocks
