#include "core/kernel_instance.h"

#include <condition_variable>
#include <mutex>

namespace conformance::core {
namespace {

using CreateFn = void* (*)(TF_OpKernelConstruction*);
using ComputeFn = void (*)(void*, TF_OpKernelContext*);
using ComputeAsyncFn = void (*)(void*, TF_OpKernelContext*, TF_AsyncOpKernelDoneCallback*);
using DeleteFn = void (*)(void*);

template <typename Fn>
Fn As(void* fn) {
  return reinterpret_cast<Fn>(fn);
}

}  // namespace

KernelInstance::KernelInstance(const KernelRegistration& registration,
                               KernelConstruction& construction)
    : registration_(registration) {
  if (registration_.create_func != nullptr) {
    kernel_ = As<CreateFn>(registration_.create_func)(construction.c_handle());
  }
}

KernelInstance::~KernelInstance() {
  if (registration_.delete_func != nullptr) As<DeleteFn>(registration_.delete_func)(kernel_);
}

void KernelInstance::Compute(KernelContext& ctx) {
  if (!registration_.is_async) {
    As<ComputeFn>(registration_.compute_func)(kernel_, ctx.c_handle());
    return;
  }
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  AsyncDone callback([&] {
    std::lock_guard lock(mu);
    done = true;
    cv.notify_all();
  });
  As<ComputeAsyncFn>(registration_.compute_func)(kernel_, ctx.c_handle(), callback.c_handle());
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  last_done_calls_ = callback.calls();
}

}  // namespace conformance::core
