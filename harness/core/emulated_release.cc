// The emulated release's version and op registry (emulated_release.h).
#include "core/emulated_release.h"

#include <mutex>
#include <optional>

#include "core/proto_wire.h"

namespace conformance::core {
namespace {

struct State {
  std::mutex mutex;
  std::string version = "2.21.0";
  std::function<std::string()> produce_op_list;
  std::optional<std::string> op_list;  // produced on first use
};

State& GlobalState() {
  static State* state = new State();  // never destroyed: plugins may ask during exit
  return *state;
}

}  // namespace

void SetEmulatedRelease(EmulatedRelease release) {
  State& state = GlobalState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.version = std::move(release.version);
  state.produce_op_list = std::move(release.serialized_op_list);
  state.op_list.reset();
}

const std::string& EmulatedVersion() {
  State& state = GlobalState();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.version;
}

const std::string& EmulatedOpList() {
  State& state = GlobalState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.op_list) {
    state.op_list = state.produce_op_list ? state.produce_op_list() : std::string();
  }
  return *state.op_list;
}

std::optional<std::string> EmulatedOpDef(std::string_view name) {
  // OpList.op = 1; OpDef.name = 1.
  ProtoReader list(EmulatedOpList());
  ProtoReader::Field op;
  while (list.Next(&op)) {
    if (op.number != 1 || op.wire_type != ProtoReader::kLengthDelimited) continue;
    ProtoReader def(op.bytes);
    ProtoReader::Field field;
    while (def.Next(&field)) {
      if (field.number == 1 && field.wire_type == ProtoReader::kLengthDelimited &&
          field.bytes == name) {
        return std::string(op.bytes);
      }
    }
  }
  return std::nullopt;
}

}  // namespace conformance::core
