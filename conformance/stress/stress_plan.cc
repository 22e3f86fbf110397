#include "stress_plan.h"

#include <algorithm>
#include <cstring>

namespace conformance::stress {
namespace {

// splitmix64: small, seedable, identical everywhere.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t Below(std::uint64_t bound) { return Next() % bound; }

 private:
  std::uint64_t state_;
};

struct Model {
  std::vector<std::vector<std::byte>> slots;
  std::vector<int> owner;
};

// A range inside a slot: odd sizes and offsets on purpose; `align` for memset32.
void PickRange(Random& random, std::uint64_t slot_bytes, std::uint64_t align, std::uint64_t& offset,
               std::uint64_t& size) {
  const std::uint64_t units = slot_bytes / align;
  offset = random.Below(units) * align;
  size =
      (1 + random.Below(std::min<std::uint64_t>(units - offset / align, 1024 / align + 1))) * align;
}

std::vector<int> Owned(const Model& model, int stream) {
  std::vector<int> slots;
  for (int slot = 0; slot < static_cast<int>(model.owner.size()); ++slot) {
    if (model.owner[slot] == stream) slots.push_back(slot);
  }
  return slots;
}

}  // namespace

const char* OpKindName(OpKind kind) {
  switch (kind) {
    case OpKind::kWrite: return "memcpy_htod";
    case OpKind::kCopy: return "memcpy_dtod";
    case OpKind::kMemset: return "memset";
    case OpKind::kMemset32: return "memset32";
    case OpKind::kZero: return "mem_zero";
    case OpKind::kRead: return "memcpy_dtoh";
    case OpKind::kCallback: return "host_callback";
    case OpKind::kRecord: return "record_event";
    case OpKind::kWaitEvent: return "wait_for_event";
    case OpKind::kDependOn: return "create_stream_dependency";
  }
  return "?";
}

Plan MakePlan(std::uint64_t seed, const PlanShape& shape) {
  Plan plan;
  plan.shape = shape;
  Random random(seed);
  Model model;
  model.slots.assign(shape.slots, std::vector<std::byte>(shape.slot_bytes));
  for (int slot = 0; slot < shape.slots; ++slot) model.owner.push_back(slot % shape.streams);

  // Every slot starts zeroed by its first owner, so the model knows every byte.
  for (int slot = 0; slot < shape.slots; ++slot) {
    Op op;
    op.kind = shape.with_fills ? OpKind::kZero : OpKind::kWrite;
    op.stream = model.owner[slot];
    op.slot = slot;
    op.size = shape.slot_bytes;
    if (!shape.with_fills) op.source.assign(op.size, std::byte{0});
    plan.ops.push_back(std::move(op));
  }
  std::vector<std::size_t> last_op(shape.streams, 0);  // per stream, the latest op in the plan
  for (std::size_t i = 0; i < plan.ops.size(); ++i) last_op[plan.ops[i].stream] = i;
  while (static_cast<int>(plan.ops.size()) < shape.operations) {
    const int stream = static_cast<int>(random.Below(shape.streams));
    const std::vector<int> owned = Owned(model, stream);
    Op op;
    op.stream = stream;
    std::uint64_t choice = owned.empty() ? 99 : random.Below(100);
    if (!shape.with_fills && choice >= 44 && choice < 56) choice = 0;  // a write instead of a fill
    if (choice < 22) {
      op.kind = OpKind::kWrite;
      op.slot = owned[random.Below(owned.size())];
      PickRange(random, shape.slot_bytes, 1, op.offset, op.size);
      op.source.resize(op.size);
      for (auto& byte : op.source) byte = static_cast<std::byte>(random.Next());
      std::memcpy(model.slots[op.slot].data() + op.offset, op.source.data(), op.size);
    } else if (choice < 36 && shape.with_dtod && owned.size() >= 2) {
      op.kind = OpKind::kCopy;
      op.slot = owned[random.Below(owned.size())];
      do {
        op.other_slot = owned[random.Below(owned.size())];
      } while (op.other_slot == op.slot);
      PickRange(random, shape.slot_bytes, 1, op.offset, op.size);
      op.other_offset = random.Below(shape.slot_bytes - op.size + 1);
      std::memcpy(model.slots[op.other_slot].data() + op.other_offset,
                  model.slots[op.slot].data() + op.offset, op.size);
    } else if (choice < 44) {
      op.kind = OpKind::kMemset;
      op.slot = owned[random.Below(owned.size())];
      PickRange(random, shape.slot_bytes, 1, op.offset, op.size);
      op.pattern = static_cast<std::uint8_t>(random.Next());
      std::memset(model.slots[op.slot].data() + op.offset, static_cast<int>(op.pattern), op.size);
    } else if (choice < 52) {
      op.kind = OpKind::kMemset32;
      op.slot = owned[random.Below(owned.size())];
      PickRange(random, shape.slot_bytes, 4, op.offset, op.size);
      op.pattern = static_cast<std::uint32_t>(random.Next());
      for (std::uint64_t i = 0; i < op.size; i += 4) {
        for (int b = 0; b < 4; ++b) {
          model.slots[op.slot][op.offset + i + b] =
              static_cast<std::byte>(op.pattern >> (8 * b));  // little-endian
        }
      }
    } else if (choice < 56) {
      op.kind = OpKind::kZero;
      op.slot = owned[random.Below(owned.size())];
      PickRange(random, shape.slot_bytes, 1, op.offset, op.size);
      std::memset(model.slots[op.slot].data() + op.offset, 0, op.size);
    } else if (choice < 72) {
      op.kind = OpKind::kRead;
      op.slot = owned[random.Below(owned.size())];
      PickRange(random, shape.slot_bytes, 1, op.offset, op.size);
      op.expected.assign(model.slots[op.slot].begin() + op.offset,
                         model.slots[op.slot].begin() + op.offset + op.size);
    } else if (choice < 88) {
      // Hand a slot to another stream, which waits for this one (event or dependency).
      op.slot = owned[random.Below(owned.size())];
      int to = static_cast<int>(random.Below(shape.streams - 1));
      if (to >= stream) ++to;
      Op take;
      take.stream = to;
      take.slot = op.slot;
      take.other_stream = stream;
      if (random.Below(3) != 0) {
        op.kind = OpKind::kRecord;
        op.event = plan.events++;
        op.other_stream = to;
        take.kind = OpKind::kWaitEvent;
        take.event = op.event;
        take.depends_on = plan.ops.size();  // the host issues the record first
        last_op[stream] = plan.ops.size();
        plan.ops.push_back(std::move(op));
      } else {
        take.kind = OpKind::kDependOn;
        // "What `stream` has queued so far" must include its last op: the host issues it first.
        take.depends_on = last_op[stream];
      }
      model.owner[take.slot] = to;
      last_op[to] = plan.ops.size();
      plan.ops.push_back(std::move(take));
      continue;
    } else {
      op.kind = OpKind::kCallback;
      ++plan.callbacks;
    }
    last_op[stream] = plan.ops.size();
    plan.ops.push_back(std::move(op));
  }
  plan.final_owner = model.owner;
  plan.final_slots = model.slots;
  return plan;
}

}  // namespace conformance::stress
