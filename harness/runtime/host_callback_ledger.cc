#include "runtime/host_callback_ledger.h"

namespace conformance::runtime {

void* HostCallbackLedger::Enqueue(std::uint64_t stream_serial, HostCallbackBody body,
                                  HostCallbackTicket* ticket) {
  std::lock_guard lock(mutex_);
  Entry& entry = entries_.emplace_back();
  entry.ledger = this;
  entry.record.ticket = entries_.size();
  entry.record.stream_serial = stream_serial;
  entry.body = std::move(body);
  *ticket = entry.record.ticket;
  return &entry;
}

void HostCallbackLedger::Trampoline(void* const arg, TF_Status* const status) {
  auto* entry = static_cast<Entry*>(arg);
  entry->ledger->Invoked(*entry, status);
}

void HostCallbackLedger::Invoked(Entry& entry, TF_Status* status) {
  HostCallbackBody body;
  {
    std::lock_guard lock(mutex_);
    ++entry.record.invocations;
    if (status == nullptr) entry.record.null_status = true;
    if (entry.record.invocations == 1) {
      order_.push_back(entry.record.ticket);
      entry.record.first_invocation = order_.size();
      body = entry.body;  // run once only: a repeated call is counted, not executed again
    }
  }
  // The body runs unlocked: it may sleep or call into the plugin.
  if (!body) return;
  const HostCallbackOutcome outcome = body();
  if (status != nullptr)
    TF_SetStatus(status, outcome.code, outcome.code == TF_OK ? "" : outcome.message.c_str());
}

void HostCallbackLedger::Withdraw(HostCallbackTicket ticket) {
  std::lock_guard lock(mutex_);
  if (ticket >= 1 && ticket <= entries_.size()) entries_[ticket - 1].withdrawn = true;
}

HostCallbackRecord HostCallbackLedger::Record(HostCallbackTicket ticket) const {
  std::lock_guard lock(mutex_);
  if (ticket < 1 || ticket > entries_.size()) return {};
  return entries_[ticket - 1].record;
}

std::vector<HostCallbackRecord> HostCallbackLedger::All() const {
  std::lock_guard lock(mutex_);
  std::vector<HostCallbackRecord> all;
  for (const auto& entry : entries_) all.push_back(entry.record);
  return all;
}

std::vector<HostCallbackTicket> HostCallbackLedger::InvocationOrder() const {
  std::lock_guard lock(mutex_);
  return order_;
}

std::size_t HostCallbackLedger::Outstanding() const {
  std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& entry : entries_)
    count += (!entry.withdrawn && entry.record.invocations == 0) ? 1 : 0;
  return count;
}

std::size_t HostCallbackLedger::Repeated() const {
  std::lock_guard lock(mutex_);
  std::size_t count = 0;
  for (const auto& entry : entries_) count += entry.record.invocations > 1 ? 1 : 0;
  return count;
}

}  // namespace conformance::runtime
