#include "mocks/callbacks.h"

#include <array>

namespace conformance::mocks {
namespace {

struct Entry {
  std::string_view field, method;
};

constexpr std::array kEntries = {
#define CONFORMANCE_MOCK_ENTRY(field, method) Entry{#field, #method},
    CONFORMANCE_MOCK_SE_CALLBACKS(CONFORMANCE_MOCK_ENTRY)
#undef CONFORMANCE_MOCK_ENTRY
};

constexpr std::size_t kFirstCallbackOffset = 16;  // after struct_size and ext

}  // namespace

std::string_view CallbackName(Callback callback) {
  return kEntries[static_cast<int>(callback)].field;
}
std::string_view CallbackMethod(Callback callback) {
  return kEntries[static_cast<int>(callback)].method;
}

std::optional<Callback> ParseCallback(std::string_view name) {
  for (std::size_t i = 0; i < kEntries.size(); ++i) {
    if (kEntries[i].field == name || kEntries[i].method == name) return static_cast<Callback>(i);
  }
  return std::nullopt;
}

std::optional<std::size_t> CallbackOffset(Callback callback, Generation generation) {
  const GenerationFacts& facts = Facts(generation);
  const bool memset_family = callback == Callback::kMemZero || callback == Callback::kMemset ||
                             callback == Callback::kMemset32;
  if (memset_family && !facts.has_memset_family) return std::nullopt;
  if (callback == Callback::kHostCallback) return facts.host_callback_offset;
  // Every other member keeps its place: the list above is the newest order.
  return kFirstCallbackOffset + 8 * static_cast<std::size_t>(callback);
}

}  // namespace conformance::mocks
