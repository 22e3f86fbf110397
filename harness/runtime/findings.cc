#include "runtime/findings.h"

namespace conformance::runtime {

const char* FindingKindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::kStatusNotWritten: return "status_not_written";
    case FindingKind::kOutParamNotWritten: return "out_param_not_written";
    case FindingKind::kStructSizeZero: return "struct_size_zero";
    case FindingKind::kAllocationOpaqueNotWritten: return "allocation_opaque_not_written";
    case FindingKind::kAllocationSizeNotWritten: return "allocation_size_not_written";
    case FindingKind::kAllocationSizeTooSmall: return "allocation_size_too_small";
    case FindingKind::kHostCallbackNullStatus: return "host_callback_null_status";
  }
  return "unknown";
}

void Findings::Record(FindingKind kind, const std::string& callback, std::string detail) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] =
      findings_.try_emplace({kind, callback}, Finding{kind, callback, std::move(detail), 0});
  ++it->second.count;
}

std::vector<Finding> Findings::All() const {
  std::lock_guard lock(mutex_);
  std::vector<Finding> all;
  for (const auto& [key, finding] : findings_) all.push_back(finding);
  return all;
}

std::vector<Finding> Findings::Of(FindingKind kind) const {
  std::lock_guard lock(mutex_);
  std::vector<Finding> some;
  for (const auto& [key, finding] : findings_) {
    if (key.first == kind) some.push_back(finding);
  }
  return some;
}

bool Findings::Has(FindingKind kind, const std::string& callback) const {
  std::lock_guard lock(mutex_);
  return findings_.contains({kind, callback});
}

void Findings::Clear() {
  std::lock_guard lock(mutex_);
  findings_.clear();
}

}  // namespace conformance::runtime
