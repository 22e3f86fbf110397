#include "mocks/plugin/mock_plugin_config.h"

#include <array>
#include <charconv>
#include <optional>
#include <utility>
#include <vector>

namespace conformance::mocks {
namespace {

std::vector<std::string_view> Split(std::string_view text, char separator,
                                    std::size_t max_parts = 0) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    if (at == std::string_view::npos || (max_parts != 0 && parts.size() + 1 == max_parts)) {
      parts.push_back(text);
      return parts;
    }
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
}

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

template <typename Names>
std::string Unknown(std::string_view what, std::string_view value, const Names& names) {
  std::string message =
      "MOCK_PLUGIN_CONFIG: unknown " + std::string(what) + " '" + std::string(value) + "'";
  std::string_view best;
  std::size_t best_distance = 3;
  for (std::string_view name : names) {
    const std::size_t d = EditDistance(value, name);
    if (d < best_distance) best_distance = d, best = name;
  }
  if (!best.empty()) message += "; did you mean '" + std::string(best) + "'?";
  return message;
}

constexpr std::array<std::string_view, 15> kKeys = {"generation",
                                                    "name",
                                                    "type",
                                                    "devices",
                                                    "fail_allocation",
                                                    "stall_stream",
                                                    "error",
                                                    "null",
                                                    "unwritten",
                                                    "write_past_end",
                                                    "struct_size",
                                                    "never_complete_events",
                                                    "unified_memory",
                                                    "graph_device_type",
                                                    "profiler_device_type"};

constexpr std::array<std::string_view, 4> kGraphCallbacks = {"TF_InitGraph", "create_func",
                                                             "optimize_func", "destroy_func"};
constexpr std::array<std::string_view, 6> kProfilerCallbacks = {
    "TF_InitProfiler",     "start", "stop", "collect_data_xspace", "destroy_profiler",
    "destroy_profiler_fns"};

template <typename Names>
bool In(const Names& names, std::string_view name) {
  for (std::string_view known : names) {
    if (known == name) return true;
  }
  return false;
}

constexpr std::array<std::pair<std::string_view, OutParam>, 10> kOutParams = {{
    {"allocate_memory", OutParam::kAllocateMemory},
    {"allocate_size", OutParam::kAllocateSize},
    {"create_stream", OutParam::kCreateStream},
    {"create_event", OutParam::kCreateEvent},
    {"memory_usage_free", OutParam::kMemoryUsageFree},
    {"memory_usage_total", OutParam::kMemoryUsageTotal},
    {"status", OutParam::kStatus},
    {"device_count", OutParam::kDeviceCount},
    {"struct_size", OutParam::kStructSize},
    {"allocator_stats", OutParam::kAllocatorStats},
}};

constexpr std::array<std::pair<std::string_view, FilledStruct>, 6> kStructs = {{
    {"platform", FilledStruct::kPlatform},
    {"platform_fns", FilledStruct::kPlatformFns},
    {"stream_executor", FilledStruct::kStreamExecutor},
    {"device_fns", FilledStruct::kDeviceFns},
    {"timer_fns", FilledStruct::kTimerFns},
    {"device", FilledStruct::kDevice},
}};

constexpr std::array<std::pair<std::string_view, TF_Code>, 16> kCodes = {{
    {"CANCELLED", TF_CANCELLED},
    {"UNKNOWN", TF_UNKNOWN},
    {"INVALID_ARGUMENT", TF_INVALID_ARGUMENT},
    {"DEADLINE_EXCEEDED", TF_DEADLINE_EXCEEDED},
    {"NOT_FOUND", TF_NOT_FOUND},
    {"ALREADY_EXISTS", TF_ALREADY_EXISTS},
    {"PERMISSION_DENIED", TF_PERMISSION_DENIED},
    {"RESOURCE_EXHAUSTED", TF_RESOURCE_EXHAUSTED},
    {"FAILED_PRECONDITION", TF_FAILED_PRECONDITION},
    {"ABORTED", TF_ABORTED},
    {"OUT_OF_RANGE", TF_OUT_OF_RANGE},
    {"UNIMPLEMENTED", TF_UNIMPLEMENTED},
    {"INTERNAL", TF_INTERNAL},
    {"UNAVAILABLE", TF_UNAVAILABLE},
    {"DATA_LOSS", TF_DATA_LOSS},
    {"UNAUTHENTICATED", TF_UNAUTHENTICATED},
}};

// Platform-level callbacks and entry points that error= / null= may name besides the
// SP_StreamExecutor ones.
constexpr std::array<std::string_view, 12> kPlatformCallbacks = {
    "SE_InitPlugin",     "get_device_count",   "create_device",          "destroy_device",
    "create_device_fns", "destroy_device_fns", "create_stream_executor", "destroy_stream_executor",
    "create_timer_fns",  "destroy_timer_fns",  "destroy_platform",       "destroy_platform_fns"};

template <typename Table>
auto Find(const Table& table, std::string_view name) -> std::optional<decltype(table[0].second)> {
  for (const auto& [key, value] : table) {
    if (key == name) return value;
  }
  return std::nullopt;
}

template <typename Table>
std::vector<std::string_view> Keys(const Table& table) {
  std::vector<std::string_view> keys;
  keys.reserve(table.size());
  for (const auto& entry : table) keys.push_back(entry.first);
  return keys;
}

std::vector<std::string_view> CallbackNames() {
  std::vector<std::string_view> names(kPlatformCallbacks.begin(), kPlatformCallbacks.end());
  for (int i = 0; i <= static_cast<int>(Callback::kHostCallback); ++i) {
    names.push_back(CallbackName(static_cast<Callback>(i)));
  }
  names.insert(names.end(), kGraphCallbacks.begin(), kGraphCallbacks.end());
  names.insert(names.end(), kProfilerCallbacks.begin(), kProfilerCallbacks.end());
  return names;
}

bool IsCallback(std::string_view name) {
  for (std::string_view known : CallbackNames()) {
    if (known == name) return true;
  }
  return false;
}

std::optional<int> ParseInt(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// A byte, decimal ("60") or hex ("0x3c").
std::optional<int> ParseByte(std::string_view text) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    text.remove_prefix(2);
    base = 16;
  }
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > 0xFF)
    return std::nullopt;
  return value;
}

// Structs whose struct_size `struct_size=` sets, by the mock that fills them (or, for the
// core-filled params, receives them).
constexpr std::array<std::string_view, 7> kPlatformStructs = {
    "se_params",       "platform",  "platform_fns", "device_fns",
    "stream_executor", "timer_fns", "device"};
constexpr std::array<std::string_view, 3> kGraphStructs = {"graph_params", "optimizer",
                                                           "optimizer_configs"};
constexpr std::array<std::string_view, 3> kProfilerStructs = {"profiler_params", "profiler",
                                                              "profiler_fns"};

// struct_size=STRUCT:VALUE, VALUE a number or "unwritten".
std::string ApplyStructSize(std::string_view value, const ConfiguredMocks& mocks) {
  const std::vector<std::string_view> parts = Split(value, ':');
  Faults* faults = nullptr;
  if (In(kPlatformStructs, parts[0])) {
    faults = mocks.plugin ? &mocks.plugin->platform.faults() : nullptr;
  } else if (In(kGraphStructs, parts[0])) {
    faults = mocks.optimizer ? &mocks.optimizer->faults() : nullptr;
  } else if (In(kProfilerStructs, parts[0])) {
    faults = mocks.profiler ? &mocks.profiler->faults() : nullptr;
  } else {
    std::vector<std::string_view> names(kPlatformStructs.begin(), kPlatformStructs.end());
    names.insert(names.end(), kGraphStructs.begin(), kGraphStructs.end());
    names.insert(names.end(), kProfilerStructs.begin(), kProfilerStructs.end());
    return Unknown("struct", parts[0], names);
  }
  const std::optional<int> size = parts.size() == 2 ? ParseInt(parts[1]) : std::nullopt;
  if (parts.size() != 2 || (parts[1] != "unwritten" && (!size || *size < 0))) {
    return "MOCK_PLUGIN_CONFIG: struct_size needs STRUCT:BYTES or STRUCT:unwritten, got '" +
           std::string(value) + "'";
  }
  if (faults != nullptr) {
    faults->SetStructSize(
        parts[0], parts[1] == "unwritten" ? std::nullopt : std::optional<std::uint64_t>(*size));
  }
  return "";
}

// Faults of a callback live with the mock that owns it; nullptr when that mock is not
// configured by this entry point.
Faults* FaultsOf(std::string_view callback, const ConfiguredMocks& mocks) {
  if (In(kGraphCallbacks, callback)) return mocks.optimizer ? &mocks.optimizer->faults() : nullptr;
  if (In(kProfilerCallbacks, callback)) return mocks.profiler ? &mocks.profiler->faults() : nullptr;
  if (mocks.plugin == nullptr) return nullptr;
  if (ParseCallback(callback)) return &mocks.plugin->se.faults();
  return &mocks.plugin->platform.faults();
}

std::string ApplyPluginItem(std::string_view key, std::string_view value, MockPlugin* plugin);

std::string ApplyItem(std::string_view key, std::string_view value, const ConfiguredMocks& mocks) {
  if (key == "error" || key == "null") {
    const std::vector<std::string_view> parts = Split(value, ':', 3);
    if (!IsCallback(parts[0])) return Unknown("callback", parts[0], CallbackNames());
    if (key == "error" && parts.size() != 3) {
      return "MOCK_PLUGIN_CONFIG: error needs CALLBACK:CODE:MESSAGE, got '" + std::string(value) +
             "'";
    }
    if (key == "null" && parts.size() != 1) return Unknown("callback", value, CallbackNames());
    std::optional<TF_Code> code;
    if (key == "error" && !(code = Find(kCodes, parts[1])))
      return Unknown("status code", parts[1], Keys(kCodes));
    Faults* faults = FaultsOf(parts[0], mocks);
    if (faults == nullptr) return "";
    if (key == "error")
      faults->SetError(parts[0], {*code, std::string(parts[2])});
    else
      faults->LeaveNull(parts[0]);
    return "";
  }
  if (key == "struct_size") return ApplyStructSize(value, mocks);
  if (key == "graph_device_type")
    return mocks.optimizer ? mocks.optimizer->device_type() = value, "" : "";
  if (key == "profiler_device_type")
    return mocks.profiler ? mocks.profiler->device_type() = value, "" : "";
  if (!In(kKeys, key)) return Unknown("key", key, kKeys);
  return mocks.plugin ? ApplyPluginItem(key, value, mocks.plugin) : "";
}

std::string ApplyPluginItem(std::string_view key, std::string_view value, MockPlugin* plugin) {
  if (key == "generation") return "";  // consumed by ParseConfigGeneration
  if (key == "name") return plugin->platform.options().name = value, "";
  if (key == "type") return plugin->platform.options().type = value, "";
  if (key == "unified_memory")
    return plugin->platform.options().supports_unified_memory = value == "1", "";
  if (key == "never_complete_events") return plugin->se.NeverCompleteEvents(), "";
  if (key == "devices" || key == "fail_allocation" || key == "stall_stream") {
    const std::optional<int> n = ParseInt(value);
    // devices may be negative: a plugin reporting a negative count is a defect to catch.
    if (!n || (*n < 0 && key != "devices"))
      return "MOCK_PLUGIN_CONFIG: " + std::string(key) + " needs a number, got '" +
             std::string(value) + "'";
    if (key == "devices")
      plugin->platform.options().device_count = *n;
    else if (key == "stall_stream")
      plugin->se.faults().StallStream(*n);
    else
      plugin->se.FailAllocation(*n);
    return "";
  }
  if (key == "unwritten") {
    const std::optional<OutParam> param = Find(kOutParams, value);
    if (!param) return Unknown("out-parameter", value, Keys(kOutParams));
    plugin->se.LeaveUnwritten(*param);
    plugin->platform.LeaveUnwritten(*param);
    return "";
  }
  if (key == "write_past_end") {
    const std::vector<std::string_view> parts = Split(value, ':');
    const std::optional<FilledStruct> which = Find(kStructs, parts[0]);
    if (!which) return Unknown("struct", parts[0], Keys(kStructs));
    const std::optional<int> bytes =
        parts.size() == 2 || parts.size() == 3 ? ParseInt(parts[1]) : std::nullopt;
    // The optional fill byte, decimal or 0x-prefixed hex.
    const std::optional<int> fill =
        parts.size() == 3 ? ParseByte(parts[2]) : std::optional<int>(PastEndWrite::kDefaultFill);
    if (!bytes || *bytes <= 0 || !fill)
      return "MOCK_PLUGIN_CONFIG: write_past_end needs STRUCT:BYTES or STRUCT:BYTES:FILL (FILL a "
             "byte, e.g. 0xff), got '" +
             std::string(value) + "'";
    const auto count = static_cast<std::size_t>(*bytes);
    const auto byte = static_cast<unsigned char>(*fill);
    plugin->se.faults().WritePastEnd(*which, count, byte);
    plugin->platform.WritePastEnd(*which, count, byte);
    return "";
  }
  return Unknown("key", key, kKeys);
}

}  // namespace

std::string ParseConfigGeneration(std::string_view config, Generation* generation) {
  *generation = Generation::kNewest;
  for (std::string_view item : Split(config, ';')) {
    const std::vector<std::string_view> kv = Split(item, '=', 2);
    if (kv[0] != "generation") continue;
    const std::optional<Generation> parsed = kv.size() == 2 ? ParseGeneration(kv[1]) : std::nullopt;
    if (!parsed) {
      return Unknown("generation", kv.size() == 2 ? kv[1] : "",
                     std::array<std::string_view, 4>{"newest", "tf2.10", "tf2.7", "tf2.5"});
    }
    *generation = *parsed;
  }
  return "";
}

std::string ApplyPluginConfig(std::string_view config, const ConfiguredMocks& mocks) {
  for (std::string_view item : Split(config, ';')) {
    if (item.empty()) continue;
    const std::vector<std::string_view> kv = Split(item, '=', 2);
    std::string error = ApplyItem(kv[0], kv.size() == 2 ? kv[1] : "", mocks);
    if (!error.empty()) return error;
  }
  return "";
}

}  // namespace conformance::mocks
