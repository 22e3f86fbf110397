#pragma once
// A scenario as written in its YAML file, after parsing and before validation: names are
// still strings and every key keeps its position, so the validator can point at the exact key
// that is wrong. The file format is specified in specs/scenarios/README.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conformance::scenario {

// 1-based, as editors count. 0 means "no position" (e.g. a file that cannot be read).
struct Location {
  int line = 0;
  int column = 0;
};

enum class BufferKind { kDevice, kHost, kUnified };

enum class StepKind {
  kAllocate,
  kDeallocate,
  kDeallocateNull,
  kMemcpyHtoD,
  kMemcpyDtoH,
  kMemcpyDtoD,
  kMemset,
  kMemset32,
  kMemZero,
  kWrite,   // the host writes into a host or unified buffer
  kVerify,  // the host reads a host or unified buffer and compares it with the model
  kCreateStream,
  kDestroyStream,
  kCreateEvent,
  kDestroyEvent,
  kRecordEvent,
  kWaitForEvent,
  kCreateStreamDependency,
  kHoldStream,  // a host callback holds the stream until the scenario's thread waits
  kBlockHostUntilDone,
  kBlockHostForEvent,
  kSynchronizeAllActivity,
  kGetEventStatus,
  kGetStreamStatus,
  kRepeat,
  kConcurrent,
};

enum class EventState { kUnknown, kPending, kComplete, kError };

// Host bytes a step writes: a literal list, a repeated pattern, or seeded random bytes.
struct HostData {
  enum class Kind { kLiteral, kPattern, kRandom };
  Kind kind = Kind::kLiteral;
  std::vector<uint8_t> bytes;  // literal bytes, or the pattern's unit
  uint8_t increment = 0;       // pattern: added to every byte at each repetition
  uint64_t seed_offset = 0;    // random: combined with RunSettings::seed
};

// A byte count. `capacity` sizes (allocate only) are resolved on the device at run time.
struct Size {
  uint64_t bytes = 0;
  bool from_capacity = false;  // bytes is then added to the device's capacity
};

struct Step {
  StepKind kind = StepKind::kAllocate;
  Location at;       // the step's kind key
  std::string path;  // "3", "4.2", "5.t1.2": where it is in the scenario, for messages
  std::map<std::string, Location> keys;  // every key the step has, where it is

  // The new name (allocate, create_stream, create_event).
  std::string name;
  BufferKind buffer_kind = BufferKind::kDevice;
  int device = 0;

  // References by name. Which ones a step has depends on its kind (see schema_keys.cc).
  std::string buffer, src, dst, stream, event, dependent, other;
  uint64_t offset = 0, src_offset = 0, dst_offset = 0;
  std::optional<Size> size;
  std::optional<HostData> data;  // memcpy_htod and write: inline source bytes
  uint32_t value = 0;            // memset / memset32

  // Expected outcome. Empty: OK (for steps that report a status).
  std::vector<int> expect_status;              // TF_Code values; any of them is accepted
  std::vector<EventState> expect_event_state;  // get_event_status; any of them is accepted

  int times = 0;                           // repeat
  std::vector<Step> body;                  // repeat
  std::vector<std::vector<Step>> threads;  // concurrent: one list per thread

  bool Has(const std::string& key) const { return keys.contains(key); }
  Location KeyAt(const std::string& key) const {
    auto it = keys.find(key);
    return it == keys.end() ? at : it->second;
  }
};

struct Requirements {
  bool unified_memory = false;
  int devices = 1;  // at least this many devices
  Location at;
};

struct Scenario {
  std::string name;
  Location at;  // the scenario's mapping
  Location name_at;
  std::string rule, tensorflow, fix;  // its catalogue entry
  std::string
      consequence;  // the catalogue's "<kind>: <what a user hits>" (optional for user files)
  Requirements requirements;
  std::vector<Step> steps;
};

struct ScenarioFile {
  std::string label;  // how messages name the file (a path, or a built-in's project path)
  std::string stem;   // file name without .yaml: the middle part of check ids
  std::string tier = "runtime";
  std::vector<Scenario> scenarios;
};

}  // namespace conformance::scenario
