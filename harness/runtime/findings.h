#pragma once
// Things a session noticed that are not call failures by TensorFlow's rules but that checks
// report (mostly stricter-than-TensorFlow): statuses and out-params left unwritten, allocation
// results TensorFlow would only log. Thread-safe: the stress tier records from many threads.
// Deduplicated per (kind, callback) with a count, so a million calls stay one finding.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace conformance::runtime {

enum class FindingKind {
  kStatusNotWritten,    // TF_Status came back still poisoned; treated as OK (TF hands out OK)
  kOutParamNotWritten,  // an out-param stayed poisoned although the call reported success
  kStructSizeZero,      // allocate left SP_DeviceMemoryBase.struct_size 0 (TF logs an error)
  kAllocationOpaqueNotWritten,  // allocate never wrote opaque: treated as failure (TF prefills
                                // NULL)
  kAllocationSizeNotWritten,    // allocate wrote opaque but not size (TF would record size 0)
  kAllocationSizeTooSmall,      // allocate wrote a size smaller than requested
  kHostCallbackNullStatus,      // the plugin invoked callback_fn with a NULL TF_Status
};

const char* FindingKindName(FindingKind kind);

struct Finding {
  FindingKind kind;
  std::string callback;  // "SP_StreamExecutor.create_stream"
  std::string detail;    // the first occurrence, in words
  std::uint64_t count = 0;
};

class Findings {
 public:
  void Record(FindingKind kind, const std::string& callback, std::string detail);
  std::vector<Finding> All() const;
  std::vector<Finding> Of(FindingKind kind) const;
  bool Has(FindingKind kind, const std::string& callback) const;
  void Clear();

 private:
  mutable std::mutex mutex_;
  std::map<std::pair<FindingKind, std::string>, Finding> findings_;
};

}  // namespace conformance::runtime
