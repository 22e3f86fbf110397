#pragma once
// The stress tier's workload, generated up front from the seed: a global sequence of
// operations on S streams over K device slots, plus what a host model says every read and
// every slot must hold. Each slot belongs to one stream at a time; ownership moves between
// streams through an event (record on the old owner, wait on the new) or a stream dependency,
// so the device's result is fully determined although the streams run concurrently.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace conformance::stress {

enum class OpKind {
  kWrite,      // memcpy_htod of `source` into slot[offset, +size)
  kCopy,       // memcpy_dtod slot[offset, +size) -> other_slot[other_offset, +size)
  kMemset,     // memset slot[offset, +size) to the byte `pattern`
  kMemset32,   // memset32 (offset, size multiples of 4)
  kZero,       // mem_zero
  kRead,       // memcpy_dtoh slot[offset, +size) into a host snapshot; `expected` is the model's
  kCallback,   // host_callback that logs (stream, index)
  kRecord,     // record event `event` on this stream (hands `slot` to `other_stream`)
  kWaitEvent,  // wait_for_event `event` (this stream takes `slot` over)
  kDependOn,   // create_stream_dependency(this, other_stream) (this stream takes `slot` over)
};

struct Op {
  OpKind kind = OpKind::kCallback;
  int stream = 0;
  int slot = 0, other_slot = 0;
  std::uint64_t offset = 0, other_offset = 0, size = 0;
  std::uint32_t pattern = 0;
  int other_stream = -1;
  int event = -1;  // index into the run's events (kRecord / kWaitEvent)
  std::size_t depends_on =
      0;  // kWaitEvent/kDependOn: index of the op the host must have issued first
  std::vector<std::byte> source;    // kWrite
  std::vector<std::byte> expected;  // kRead
};

struct PlanShape {
  int streams = 16;
  int slots = 48;
  std::uint64_t slot_bytes = 8192;
  int operations = 20000;
  bool with_dtod = true;   // memcpy_dtod may be NULL in a (defective) plugin
  bool with_fills = true;  // mem_zero/memset/memset32: absent from TF <= 2.9 headers
};

struct Plan {
  PlanShape shape;
  std::vector<Op> ops;
  int events = 0;
  std::vector<int> final_owner;                     // per slot
  std::vector<std::vector<std::byte>> final_slots;  // the model's final contents
  int callbacks = 0;
};

Plan MakePlan(std::uint64_t seed, const PlanShape& shape);

const char* OpKindName(OpKind kind);

}  // namespace conformance::stress
