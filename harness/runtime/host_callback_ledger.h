#pragma once
// Exactly-once accounting for host_callback. Each enqueued callback gets a ticket (increasing
// in enqueue order across the session); the trampoline the plugin calls records every
// invocation, in the global order invocations happened. Entries are never freed while the
// plugin might still call them: a ledger with outstanding tickets at session end is leaked on
// purpose (a late call must not touch freed memory).
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "tensorflow/c/tf_status.h"

namespace conformance::runtime {

// What the harness's callback body reports back to the plugin through the TF_Status it gets
// (TensorFlow's trampoline does the same with the callback's absl::Status).
struct HostCallbackOutcome {
  TF_Code code = TF_OK;
  std::string message;
};
using HostCallbackBody = std::function<HostCallbackOutcome()>;

using HostCallbackTicket = std::uint64_t;

struct HostCallbackRecord {
  HostCallbackTicket ticket = 0;
  std::uint64_t stream_serial = 0;
  int invocations = 0;                 // must end up exactly 1
  std::uint64_t first_invocation = 0;  // 1-based position in the session-wide invocation order
  bool null_status = false;            // the plugin passed a NULL TF_Status
};

class HostCallbackLedger {
 public:
  // Registers a callback; returns the context to pass as callback_arg.
  void* Enqueue(std::uint64_t stream_serial, HostCallbackBody body, HostCallbackTicket* ticket);
  // The SE_StatusCallbackFn handed to the plugin.
  static void Trampoline(void* const arg, TF_Status* const status);
  // host_callback returned false: the plugin will not call it, so it is not outstanding.
  void Withdraw(HostCallbackTicket ticket);

  HostCallbackRecord Record(HostCallbackTicket ticket) const;
  std::vector<HostCallbackRecord> All() const;
  // Tickets in the order they were first invoked.
  std::vector<HostCallbackTicket> InvocationOrder() const;
  std::size_t Outstanding() const;  // enqueued, not withdrawn, never invoked
  std::size_t Repeated() const;     // invoked more than once

 private:
  struct Entry {
    HostCallbackLedger* ledger;
    HostCallbackRecord record;
    HostCallbackBody body;
    bool withdrawn = false;
  };
  void Invoked(Entry& entry, TF_Status* status);

  mutable std::mutex mutex_;
  std::deque<Entry> entries_;  // stable addresses; index = ticket - 1
  std::vector<HostCallbackTicket> order_;
};

}  // namespace conformance::runtime
