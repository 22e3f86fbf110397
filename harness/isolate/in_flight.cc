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

void EndCheck() { AttachedState().check.Clear(); }

PluginCall::PluginCall(std::string_view callee) : uncaught_on_entry_(std::uncaught_exceptions()) {
  auto& state = AttachedState();
  static_assert(sizeof(previous_) == std::remove_reference_t<decltype(state.call)>::kCapacity,
                "the saved call must fit the shared buffer exactly");
  state.call.CopyTo(previous_);
  state.call.Set(callee);
  // A new call means any earlier exception was dealt with, unless one is still unwinding: the
  // destructors it runs free tensors and kernels through the plugin, and must not make the
  // call it escaped from anonymous.
  if (std::uncaught_exceptions() == 0 && !state.unwound_call.Empty()) state.unwound_call.Clear();
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

OffTensorFlowPath::OffTensorFlowPath(std::string_view why) {
  auto& state = AttachedState();
  static_assert(sizeof(previous_) == std::remove_reference_t<decltype(state.off_path)>::kCapacity,
                "the saved note must fit the shared buffer exactly");
  state.off_path.CopyTo(previous_);
  state.off_path.Set(why);
}

OffTensorFlowPath::~OffTensorFlowPath() { AttachedState().off_path.Set(previous_); }

InteriorPointer::InteriorPointer() { previous_ = AttachedState().interior_pointer.exchange(true); }

InteriorPointer::~InteriorPointer() { AttachedState().interior_pointer.store(previous_); }

// Not nested: the harness waits for one thing at a time on a unit's main thread.
Waiting::Waiting(std::string_view failing_call, std::string_view problem, std::string_view what) {
  auto& state = AttachedState();
  state.waiting_call.Set(failing_call);
  state.waiting_problem.Set(problem);
  state.waiting_for.Set(what);
}

Waiting::~Waiting() {
  auto& state = AttachedState();
  state.waiting_for.Clear();
  state.waiting_call.Clear();
  state.waiting_problem.Clear();
}

Probing::Probing(std::string_view failing_call, std::string_view problem, std::string_view what) {
  auto& state = AttachedState();
  state.probing_call.Set(failing_call);
  state.probing_problem.Set(problem);
  state.probing_for.Set(what);
}

Probing::~Probing() {
  auto& state = AttachedState();
  state.probing_for.Clear();
  state.probing_call.Clear();
  state.probing_problem.Clear();
}

std::string CurrentOffPath() { return AttachedState().off_path.Get(); }

WaitingFor CurrentWait() {
  const auto& state = AttachedState();
  return {state.waiting_call.Get(), state.waiting_problem.Get(), state.waiting_for.Get()};
}

std::string CurrentCheck() { return AttachedState().check.Get(); }

std::string CurrentCall() { return AttachedState().call.Get(); }

}  // namespace conformance::in_flight
