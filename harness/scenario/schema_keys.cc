#include "scenario/schema_keys.h"

#include "run/did_you_mean.h"

namespace conformance::scenario {

const std::vector<StepSchema>& StepSchemas() {
  using K = StepKind;
  // Keys are listed in the order the documentation presents them.
  static const std::vector<StepSchema> schemas = {
      {K::kAllocate,
       "allocate",
       {"name", "size", "kind", "device", "expect_status"},
       {"name", "size"},
       true},
      {K::kDeallocate, "deallocate", {"buffer"}, {"buffer"}, false},
      {K::kDeallocateNull, "deallocate_null", {"kind", "device"}, {}, false},
      {K::kMemcpyHtoD,
       "memcpy_htod",
       {"dst", "dst_offset", "size", "stream", "src", "src_offset", "data", "pattern", "random",
        "expect_status"},
       {"dst"},
       true},
      {K::kMemcpyDtoH,
       "memcpy_dtoh",
       {"src", "src_offset", "size", "stream", "dst", "dst_offset", "expect_status"},
       {"src", "size"},
       true},
      {K::kMemcpyDtoD,
       "memcpy_dtod",
       {"dst", "dst_offset", "src", "src_offset", "size", "stream", "expect_status"},
       {"dst", "src", "size"},
       true},
      {K::kMemset,
       "memset",
       {"buffer", "offset", "size", "value", "stream", "expect_status"},
       {"buffer", "size", "value", "stream"},
       true},
      {K::kMemset32,
       "memset32",
       {"buffer", "offset", "size", "value", "stream", "expect_status"},
       {"buffer", "size", "value", "stream"},
       true},
      {K::kMemZero,
       "mem_zero",
       {"buffer", "offset", "size", "stream", "expect_status"},
       {"buffer", "size", "stream"},
       true},
      {K::kWrite,
       "write",
       {"buffer", "offset", "size", "data", "pattern", "random"},
       {"buffer"},
       false},
      {K::kVerify, "verify", {"buffer", "offset", "size"}, {"buffer"}, false},
      {K::kCreateStream, "create_stream", {"name", "device", "expect_status"}, {"name"}, true},
      {K::kDestroyStream, "destroy_stream", {"stream"}, {"stream"}, false},
      {K::kCreateEvent, "create_event", {"name", "device", "expect_status"}, {"name"}, true},
      {K::kDestroyEvent, "destroy_event", {"event"}, {"event"}, false},
      {K::kRecordEvent,
       "record_event",
       {"event", "stream", "expect_status"},
       {"event", "stream"},
       true},
      {K::kWaitForEvent,
       "wait_for_event",
       {"stream", "event", "expect_status"},
       {"stream", "event"},
       true},
      {K::kCreateStreamDependency,
       "create_stream_dependency",
       {"dependent", "other", "expect_status"},
       {"dependent", "other"},
       true},
      {K::kHoldStream, "hold_stream", {"stream", "expect_status"}, {"stream"}, true},
      {K::kBlockHostUntilDone,
       "block_host_until_done",
       {"stream", "expect_status"},
       {"stream"},
       true},
      {K::kBlockHostForEvent, "block_host_for_event", {"event", "expect_status"}, {"event"}, true},
      {K::kSynchronizeAllActivity,
       "synchronize_all_activity",
       {"device", "expect_status"},
       {},
       true},
      {K::kGetEventStatus, "get_event_status", {"event", "expect"}, {"event", "expect"}, false},
      {K::kGetStreamStatus, "get_stream_status", {"stream", "expect_status"}, {"stream"}, true},
      {K::kRepeat, "repeat", {"times", "steps"}, {"times", "steps"}, false},
      {K::kConcurrent, "concurrent", {}, {}, false},
  };
  return schemas;
}

const StepSchema* FindStepSchema(std::string_view name) {
  for (const StepSchema& schema : StepSchemas()) {
    if (schema.name == name) return &schema;
  }
  return nullptr;
}

const StepSchema& SchemaOf(StepKind kind) {
  for (const StepSchema& schema : StepSchemas()) {
    if (schema.kind == kind) return schema;
  }
  return StepSchemas().front();  // unreachable: every kind has a row
}

std::vector<std::string> StepNames() {
  std::vector<std::string> names;
  for (const StepSchema& schema : StepSchemas()) names.push_back(schema.name);
  return names;
}

const std::vector<std::string>& FileKeys() {
  static const std::vector<std::string> keys = {"tier", "tensorflow", "fix", "consequence",
                                                "scenarios"};
  return keys;
}

const std::vector<std::string>& ScenarioKeys() {
  static const std::vector<std::string> keys = {"name",        "rule",     "tensorflow", "fix",
                                                "consequence", "requires", "steps"};
  return keys;
}

const std::vector<std::string>& ThreadKeys() {
  static const std::vector<std::string> keys = {"steps"};
  return keys;
}

const std::vector<std::string>& PatternKeys() {
  static const std::vector<std::string> keys = {"bytes", "increment"};
  return keys;
}

const std::vector<std::string>& RandomKeys() {
  static const std::vector<std::string> keys = {"seed_offset"};
  return keys;
}

std::string JoinKeys(const std::vector<std::string>& keys) {
  std::string text;
  for (const std::string& key : keys) text += (text.empty() ? "" : ", ") + key;
  return text;
}

std::string Suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto match = ClosestMatch(word, candidates)) return " (did you mean '" + *match + "'?)";
  return "";
}

}  // namespace conformance::scenario
