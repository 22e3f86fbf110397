#include "isolate/in_flight.h"

#include <atomic>
#include <exception>
#include <type_traits>

#include "isolate/child_state.h"

namespace conformance::isolate {
namespace {

ChildState& LocalState() noexcept {
  static ChildState state;
  return state;
}

std::atomic<ChildState*> attached{nullptr};

}  // namespace

ChildState& AttachedState() noexcept {
  ChildState* state = attached.load(std::memory_order_acquire);
  return state != nullptr ? *state : LocalState();
}

void Attach(ChildState* state) noexcept { attached.store(state, std::memory_order_release); }

}  // namespace conformance::isolate

namespace conformance::in_flight {

using isolate::AttachedState;

void BeginCheck(std::string_view check_id) { AttachedState().check.Set(check_id); }

void EndCheck() { AttachedState().check.Set({}); }

PluginCall::PluginCall(std::string_view callee) : uncaught_on_entry_(std::uncaught_exceptions()) {
  auto& state = AttachedState();
  static_assert(sizeof(previous_) == std::remove_reference_t<decltype(state.call)>::kCapacity,
                "the saved call must fit the shared buffer exactly");
  state.call.CopyTo(previous_);
  state.call.Set(callee);
  // A new call means any earlier exception was dealt with.
  if (!state.unwound_call.Empty()) state.unwound_call.Set({});
}

PluginCall::~PluginCall() {
  auto& state = AttachedState();
  if (std::uncaught_exceptions() > uncaught_on_entry_ && state.unwound_call.Empty()) {
    char callee[sizeof(previous_)];
    state.call.CopyTo(callee);
    state.unwound_call.Set(callee);
  }
  state.call.Set(previous_);
}

std::string CurrentCheck() { return AttachedState().check.Get(); }

std::string CurrentCall() { return AttachedState().call.Get(); }

}  // namespace conformance::in_flight
