#pragma once
// A validated scenario, ready to run: repeats unrolled, names resolved to slots (one per
// creation, so a name reused after destroy gets a fresh slot), sizes checked, and for every
// host synchronization the read-backs it makes visible. The executor needs no checks of its
// own beyond comparing what the plugin did with what the model says.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace conformance::scenario {

struct Op {
  const Step* step = nullptr;  // the step this op came from (its keys, data, expectations)
  StepKind kind = StepKind::kAllocate;
  std::string path;         // "4.2" or "4.2 (repetition 3 of 5)", for messages
  uint64_t repetition = 0;  // salt for random data, so repetitions differ

  // Slots (-1: not used). For allocate / create_stream / create_event, the created slot.
  int buffer = -1, src = -1, dst = -1, stream = -1, event = -1, dependent = -1, other = -1;
  uint64_t size = 0;  // resolved byte count (capacity sizes: the extra bytes)
  int readback = -1;  // memcpy_dtoh: its read-back
  // Read-backs whose bytes are on the host once this op returned: verify them after it.
  std::vector<int> completes;
  std::vector<std::vector<Op>> threads;  // concurrent
};

struct BufferSlot {
  std::string name;
  BufferKind kind = BufferKind::kDevice;
  int device = 0;
  uint64_t size = 0;
};

struct HandleSlot {
  std::string name;
  int device = 0;
};

// A memcpy_dtoh whose destination bytes must equal the model's snapshot once it is complete.
struct Readback {
  int stream = -1;  // -1: synchronous, verified on return
};

struct Program {
  std::shared_ptr<const Scenario> scenario;  // owns the steps the ops point at
  std::string file;                          // label, for messages
  std::vector<Op> ops;
  std::vector<BufferSlot> buffers;
  std::vector<HandleSlot> streams;
  std::vector<HandleSlot> events;
  std::vector<Readback> readbacks;
  // At the end the engine waits for every stream still alive, then verifies these.
  std::vector<int> final_readbacks;
  Requirements requirements;
};

}  // namespace conformance::scenario
