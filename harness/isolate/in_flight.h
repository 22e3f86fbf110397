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

// Readers (the parent after a crash; tests).
std::string CurrentCheck();
std::string CurrentCall();

}  // namespace conformance::in_flight
