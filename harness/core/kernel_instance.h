#pragma once
// Runs a registered plugin kernel the way TensorFlow's C-API kernel wrapper does:
// create_func once with a construction context, compute_func (or compute_async_func,
// waiting for its done callback) per call, delete_func on destruction.
#include <atomic>

#include "core/export.h"
#include "core/kernel_context.h"
#include "core/recorder.h"

namespace conformance::core {

class CONFORMANCE_CORE_API KernelInstance {
 public:
  // Calls create_func (when set); read construction.status() afterwards: TensorFlow
  // discards a kernel whose construction failed.
  KernelInstance(const KernelRegistration& registration, KernelConstruction& construction);
  ~KernelInstance();
  KernelInstance(const KernelInstance&) = delete;
  KernelInstance& operator=(const KernelInstance&) = delete;

  // Synchronous kernels: compute_func. Async kernels: compute_async_func, then blocks
  // until the plugin calls TF_RunAsyncOpKernelDoneCallback (a plugin that never does
  // hangs here; run it under the isolation timeout). Read ctx.status() afterwards.
  void Compute(KernelContext& ctx);

  void* kernel() const { return kernel_; }
  // Done-callback invocations of the last async Compute (must be exactly 1).
  int last_done_calls() const { return last_done_calls_.load(); }

 private:
  KernelRegistration registration_;
  void* kernel_ = nullptr;
  std::atomic<int> last_done_calls_{0};  // computes may run on two threads at once
};

}  // namespace conformance::core
