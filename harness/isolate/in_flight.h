#pragma once
// What the child is doing right now, kept where the parent can read it after the child died:
// the check being evaluated and the plugin function being called. The isolator places this
// state in a shared anonymous mapping before fork(); without isolation it is process-local.
// Writers are async-signal-safe (fixed buffers, no allocation) so the crash handler can read
// them too.
#include <string>
#include <string_view>

namespace conformance::in_flight {

// Marks the start of a check; crashes and timeouts from now on are attributed to it.
void BeginCheck(std::string_view check_id);
void EndCheck();

// RAII marker around every call into the plugin: "last plugin call in flight".
class PluginCall {
 public:
  explicit PluginCall(std::string_view callee);  // e.g. "SP_PlatformFns.create_device"
  ~PluginCall();
  PluginCall(const PluginCall&) = delete;
  PluginCall& operator=(const PluginCall&) = delete;

 private:
  char previous_[128];
  // Exceptions in flight when the call began; more at destruction means the call is being
  // unwound, and the isolator wants to name it in the uncaught-exception report.
  int uncaught_on_entry_ = 0;
};

// RAII around a probe of a call TensorFlow never makes, or never with these arguments
// (runtime/tensorflow_calls.h): `why` ("TensorFlow never calls allocate with 0 bytes ...")
// joins the message of a crash or timeout inside it, so that finding stays the probing
// check's own and says it is off TensorFlow's paths.
class OffTensorFlowPath {
 public:
  explicit OffTensorFlowPath(std::string_view why);
  ~OffTensorFlowPath();
  OffTensorFlowPath(const OffTensorFlowPath&) = delete;
  OffTensorFlowPath& operator=(const OffTensorFlowPath&) = delete;

 private:
  char previous_[256];
};

// A bad address in a call given opaque + offset is, almost always, a plugin that takes opaque
// for a pointer to an allocation object of its own: its device pointers are not addresses, so
// every interior pointer TensorFlow passes for a sliced tensor is invalid. That is one defect of
// allocate's, however many callbacks meet it (and runtime.memory.allocate.sizes names it too):
// what such a crash says, and the root cause it gets.
inline constexpr std::string_view kInteriorPointerNote =
    "TensorFlow passes interior pointers (opaque + offset) for sliced tensors: opaque is a "
    "device address, not a pointer to the plugin's own allocation object";
inline constexpr std::string_view kOpaqueNotAddressCall = "allocate";
inline constexpr std::string_view kOpaqueNotAddressProblem = "opaque is not a device address";

// RAII around a plugin call given a device range at opaque + offset (see above).
class InteriorPointer {
 public:
  InteriorPointer();
  ~InteriorPointer();
  InteriorPointer(const InteriorPointer&) = delete;
  InteriorPointer& operator=(const InteriorPointer&) = delete;

 private:
  bool previous_ = false;
};

// RAII around a wait of the harness outside any plugin call, so a timeout there says what it
// waited for ("the host_callback queued at step 3 never ran") and blames `failing_call` with
// `problem`, joining the root cause of the check that catches that callback's defect.
class Waiting {
 public:
  Waiting(std::string_view failing_call, std::string_view problem, std::string_view what);
  ~Waiting();
  Waiting(const Waiting&) = delete;
  Waiting& operator=(const Waiting&) = delete;
};

// RAII around calls that probe whether an earlier call's result is real, e.g. a copy near the
// end of an allocation that should not have succeeded: a crash or timeout inside is blamed on
// `failing_call` with `problem` (the earlier call's root cause), and says it was `what`.
class Probing {
 public:
  Probing(std::string_view failing_call, std::string_view problem, std::string_view what);
  ~Probing();
  Probing(const Probing&) = delete;
  Probing& operator=(const Probing&) = delete;
};

// Readers (the parent after a crash; tests).
std::string CurrentCheck();
std::string CurrentCall();
std::string CurrentOffPath();
struct WaitingFor {
  std::string failing_call, problem, what;  // empty when the harness waits for nothing
};
WaitingFor CurrentWait();

}  // namespace conformance::in_flight
