// kernels_experimental.h, the resource-variable half: TF_AssignVariable,
// TF_AssignUpdateVariable, TF_GetInputTensorFromVariable, TF_MaybeLockVariableInputMutexesInOrder
// and TF_ReleaseVariableInputLockHolder, over the VariableStore (variables.h), with TensorFlow's
// semantics (tensorflow/c/kernels_experimental.cc):
//   - a lookup failure is reported on the kernel context (as OP_REQUIRES_OK does), not in
//     the TF_Status, except in TF_AssignUpdateVariable, where TensorFlow aborts;
//   - before a variable is handed out for an update, a buffer shared with anyone else (or any
//     buffer once the variable is in copy-on-read mode) is replaced by a copy the plugin's
//     copyFunc makes into a tensor allocated on the kernel's device;
//   - the lock holder locks each distinct variable once, in address order, exclusively when
//     do_lock (use_locking) is set and shared otherwise.
// The TF_Tensor handles TensorFlow passes to copyFunc and updateFunc are never deleted by
// TensorFlow; the plugin must not delete them either. The mock lends them the same way: they
// are not counted as the plugin's handles and their buffers are dropped after the call.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "core/kernel_context.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"
#include "core/variables.h"
#include "tensorflow/c/kernels_experimental.h"

namespace core = conformance::core;

struct TF_VariableInputLockHolder {
  std::vector<std::shared_ptr<core::Variable>> variables;
  std::vector<std::unique_lock<std::shared_mutex>> locks;
  std::vector<std::shared_lock<std::shared_mutex>> shared_locks;
};

namespace {

using CopyFn = void (*)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*);
using UpdateFn = void (*)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*, int);

// A handle the core lends a plugin callback for one call. Kept reachable for the life of the
// process (a plugin that deletes it anyway must not make the core free it twice).
class LentHandle {
 public:
  explicit LentHandle(const core::Tensor& tensor) : handle_(new TF_Tensor{tensor}) {
    static std::mutex mu;
    static auto* lent = new std::vector<TF_Tensor*>();
    std::lock_guard<std::mutex> lock(mu);
    lent->push_back(handle_);
  }
  ~LentHandle() { handle_->tensor = core::Tensor(); }  // drops the buffer reference
  LentHandle(const LentHandle&) = delete;
  LentHandle& operator=(const LentHandle&) = delete;
  TF_Tensor* get() const { return handle_; }

 private:
  TF_Tensor* handle_;
};

// Replaces *tensor by a copy made on the kernel's device with the plugin's copyFunc.
core::Status CopyWithPlugin(TF_OpKernelContext* ctx, const char* function, CopyFn copy,
                            core::Tensor* tensor) {
  core::Status s;
  core::Tensor copy_target =
      core::ContextOf(ctx).Allocate(tensor->dtype(), tensor->shape(), false, &s);
  if (!s.ok()) return s;
  if (copy == nullptr) {
    core::Fatal(function,
                "the variable's buffer is shared and must be copied, but copyFunc is "
                "NULL (TensorFlow calls it and crashes)");
  }
  {
    LentHandle source(*tensor);
    LentHandle dest(copy_target);
    copy(ctx, source.get(), dest.get());
  }
  *tensor = std::move(copy_target);
  return core::Status::Ok();
}

// TensorFlow's PrepareToUpdateVariable: copy first when anyone else still reads the buffer.
core::Status PrepareToUpdate(TF_OpKernelContext* ctx, const char* function, CopyFn copy,
                             core::Variable& variable) {
  if (!variable.copy_on_read_mode && variable.tensor.RefCountIsOne()) return core::Status::Ok();
  if (variable.tensor.NumElements() == 0 && variable.tensor.buffer() == nullptr)
    return core::Status::Ok();
  return CopyWithPlugin(ctx, function, copy, &variable.tensor);
}

// TensorFlow's EnsureSparseVariableAccess: switch to copy-on-read mode, copying once if shared.
core::Status EnsureSparseAccess(TF_OpKernelContext* ctx, const char* function, CopyFn copy,
                                core::Variable& variable) {
  if (variable.copy_on_read_mode) return core::Status::Ok();
  if (!variable.tensor.RefCountIsOne()) {
    if (core::Status s = CopyWithPlugin(ctx, function, copy, &variable.tensor); !s.ok()) return s;
  }
  variable.copy_on_read_mode = true;
  return core::Status::Ok();
}

bool IsResourceInput(TF_OpKernelContext* ctx, int input) {
  return core::ContextOf(ctx).input_slot(input).tensor.dtype() == TF_RESOURCE;
}

void CheckInputIndex(TF_OpKernelContext* ctx, const char* function, int input) {
  if (input < 0 || input >= core::ContextOf(ctx).num_inputs()) {
    core::Fatal(function,
                "input index " + std::to_string(input) + " out of range (TensorFlow CHECK-fails)");
  }
}

// The variable behind resource input `input`; a failure is put on the kernel context.
std::shared_ptr<core::Variable> LookupInput(TF_OpKernelContext* ctx, const char* function,
                                            int input) {
  std::shared_ptr<core::Variable> variable;
  core::Status s = core::VariableStore::Default().Lookup(
      core::ContextOf(ctx).input_slot(input).tensor, &variable);
  if (!s.ok()) {
    core::ContextOf(ctx).Fail(s);
    core::RecordCallError(function, core::ContextOf(ctx).info().kernel_name, s);
    return nullptr;
  }
  return variable;
}

// The lock of a legacy ref input (TensorFlow's input_ref_mutex), one per buffer.
std::shared_mutex* RefInputMutex(const core::Tensor& tensor) {
  static std::mutex mu;
  static auto* mutexes = new std::map<const void*, std::unique_ptr<std::shared_mutex>>();
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = (*mutexes)[tensor.data()];
  if (!slot) slot = std::make_unique<std::shared_mutex>();
  return slot.get();
}

}  // namespace

extern "C" {

void TF_AssignVariable(TF_OpKernelContext* ctx, int input_index, int value_index,
                       bool validate_shape, CopyFn copyFunc, TF_Status* status) {
  CheckInputIndex(ctx, "TF_AssignVariable", input_index);
  CheckInputIndex(ctx, "TF_AssignVariable", value_index);
  const core::Tensor& value = core::ContextOf(ctx).input_slot(value_index).tensor;
  std::shared_ptr<core::Variable> variable = LookupInput(ctx, "TF_AssignVariable", input_index);
  if (variable == nullptr) return;
  std::unique_lock<std::shared_mutex> lock(variable->mu);
  if (validate_shape && variable->is_initialized && variable->tensor.shape() != value.shape()) {
    const core::Status s =
        core::Status::Error(TF_INVALID_ARGUMENT,
                            "Trying to assign to variable with tensor with wrong shape. Expected " +
                                core::ShapeString(variable->tensor.shape()) + " got " +
                                core::ShapeString(value.shape()));
    core::ContextOf(ctx).Fail(s);
    return;
  }
  core::Tensor assigned = value;
  if (variable->copy_on_read_mode) {
    if (core::Status s = CopyWithPlugin(ctx, "TF_AssignVariable", copyFunc, &assigned); !s.ok()) {
      core::ContextOf(ctx).Fail(s);
      return;
    }
  }
  variable->dtype = assigned.dtype();
  variable->tensor = std::move(assigned);
  variable->is_initialized = true;
  status->status = core::Status::Ok();
}

void TF_AssignUpdateVariable(TF_OpKernelContext* ctx, int input_index, int value_index, int Op,
                             int /*isVariantType*/, CopyFn copyFunc, UpdateFn updateFunc,
                             TF_Status* status) {
  CheckInputIndex(ctx, "TF_AssignUpdateVariable", input_index);
  CheckInputIndex(ctx, "TF_AssignUpdateVariable", value_index);
  std::shared_ptr<core::Variable> variable;
  core::Status found = core::VariableStore::Default().Lookup(
      core::ContextOf(ctx).input_slot(input_index).tensor, &variable);
  if (!found.ok()) {
    core::Fatal("TF_AssignUpdateVariable",
                "variable lookup failed (TensorFlow prints it and aborts): " + found.message);
  }
  const core::Tensor& value = core::ContextOf(ctx).input_slot(value_index).tensor;
  std::unique_lock<std::shared_mutex> lock(variable->mu);
  if (variable->tensor.shape() != value.shape()) {
    core::ContextOf(ctx).Fail(core::Status::Error(
        TF_INVALID_ARGUMENT, "Cannot update variable with shape " +
                                 core::ShapeString(variable->tensor.shape()) +
                                 " using a Tensor with shape " + core::ShapeString(value.shape()) +
                                 ", shapes must be equal."));
    return;
  }
  if (core::Status s = PrepareToUpdate(ctx, "TF_AssignUpdateVariable", copyFunc, *variable);
      !s.ok()) {
    core::ContextOf(ctx).Fail(s);
    return;
  }
  if (updateFunc == nullptr) {
    core::Fatal("TF_AssignUpdateVariable", "updateFunc is NULL (TensorFlow calls it and crashes)");
  }
  {
    LentHandle target(variable->tensor);
    LentHandle update(value);
    updateFunc(ctx, target.get(), update.get(), Op);
  }
  status->status = core::Status::Ok();
}

void TF_GetInputTensorFromVariable(TF_OpKernelContext* ctx, int input, bool /*lock_held*/,
                                   bool /*isVariantType*/, bool sparse, CopyFn copyFunc,
                                   TF_Tensor** out, TF_Status* status) {
  CheckInputIndex(ctx, "TF_GetInputTensorFromVariable", input);
  core::Status s;
  if (!IsResourceInput(ctx, input)) {
    const auto& slot = core::ContextOf(ctx).input_slot(input);
    if (!slot.options.is_ref) {
      core::Fatal("TF_GetInputTensorFromVariable",
                  "input " + std::to_string(input) +
                      " is neither a resource nor a ref input (TensorFlow's mutable_input "
                      "CHECK-fails)");
    }
    *out = core::TensorHandleForPlugin(slot.tensor, &s);
    status->status = s;
    return;
  }
  std::shared_ptr<core::Variable> variable =
      LookupInput(ctx, "TF_GetInputTensorFromVariable", input);
  if (variable == nullptr) return;
  core::Status prepared =
      sparse ? EnsureSparseAccess(ctx, "TF_GetInputTensorFromVariable", copyFunc, *variable)
             : PrepareToUpdate(ctx, "TF_GetInputTensorFromVariable", copyFunc, *variable);
  if (!prepared.ok()) {
    core::ContextOf(ctx).Fail(prepared);
    return;
  }
  *out = core::TensorHandleForPlugin(variable->tensor, &s);
  status->status = s;
}

void TF_MaybeLockVariableInputMutexesInOrder(TF_OpKernelContext* ctx, bool do_lock, bool sparse,
                                             const int* const inputs, size_t len, CopyFn copyFunc,
                                             TF_VariableInputLockHolder** lockHolder,
                                             TF_Status* status) {
  auto holder = std::make_unique<TF_VariableInputLockHolder>();
  bool any_resource = false;
  for (size_t i = 0; i < len; ++i) {
    CheckInputIndex(ctx, "TF_MaybeLockVariableInputMutexesInOrder", inputs[i]);
    any_resource = any_resource || IsResourceInput(ctx, inputs[i]);
  }
  if (!do_lock && !any_resource) {
    *lockHolder = holder.release();
    status->status = core::Status::Ok();
    return;
  }
  std::vector<std::shared_mutex*> mutexes;
  for (size_t i = 0; i < len; ++i) {
    std::shared_mutex* mu = nullptr;
    if (IsResourceInput(ctx, inputs[i])) {
      std::shared_ptr<core::Variable> variable;
      core::Status s = core::VariableStore::Default().Lookup(
          core::ContextOf(ctx).input_slot(inputs[i]).tensor, &variable);
      if (!s.ok()) {
        // TensorFlow's text; the input is skipped and the others still lock.
        core::ContextOf(ctx).Fail(core::Status::Error(TF_INTERNAL, "Invalid variable reference."));
        continue;
      }
      if (sparse) {
        std::unique_lock<std::shared_mutex> lock(variable->mu);
        if (core::Status e = EnsureSparseAccess(ctx, "TF_MaybeLockVariableInputMutexesInOrder",
                                                copyFunc, *variable);
            !e.ok()) {
          core::Fatal("TF_MaybeLockVariableInputMutexesInOrder",
                      "copy for sparse access failed (TensorFlow CHECK-fails): " + e.message);
        }
      }
      mu = &variable->mu;
      holder->variables.push_back(std::move(variable));
    } else {
      mu = RefInputMutex(core::ContextOf(ctx).input_slot(inputs[i]).tensor);
    }
    if (std::find(mutexes.begin(), mutexes.end(), mu) == mutexes.end()) mutexes.push_back(mu);
  }
  // One order for every kernel: no two kernels locking the same variables can deadlock.
  std::sort(mutexes.begin(), mutexes.end());
  for (std::shared_mutex* mu : mutexes) {
    if (do_lock) {
      holder->locks.emplace_back(*mu);
    } else {
      holder->shared_locks.emplace_back(*mu);
    }
  }
  *lockHolder = holder.release();
  status->status = core::Status::Ok();
}

void TF_ReleaseVariableInputLockHolder(TF_VariableInputLockHolder* lockHolder) {
  delete lockHolder;  // unlocks, in reverse order of locking; NULL is allowed
}

}  // extern "C"
