#pragma once
// Resource variables as TensorFlow's core keeps them (its ResourceMgr and Var objects), for
// kernels that take DT_RESOURCE inputs (ResourceApplyGradientDescent, ...). The harness plays
// the part of TensorFlow's own DEVICE_DEFAULT kernels VarHandleOp / AssignVariableOp /
// ReadVariableOp / DestroyResourceOp through this store:
//
//   VariableStore& store = VariableStore::Default();
//   Tensor handle = store.Create(weights_on_device);     // VarHandleOp + AssignVariableOp
//   ctx.AddInput(handle, {.host_memory = true});          // the kernel's `var` input
//   ... compute ...
//   Tensor now;  store.Read(handle, &now);                // ReadVariableOp: the current value
//   store.Destroy(handle);                                // DestroyResourceOp
//
// A handle is a scalar DT_RESOURCE host tensor naming one variable. The variable holds a
// Tensor (normally a device buffer the harness allocated); updates through the kernel C API
// (TF_AssignUpdateVariable, TF_GetInputTensorFromVariable, TF_AssignVariable) follow
// TensorFlow: a buffer shared with a reader (a Tensor the harness still holds from Read) is
// copied with the plugin's copy function before it is written (copy-on-write), so the reader
// keeps the old value and the variable gets the new one.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "core/export.h"
#include "core/status.h"
#include "core/tensor.h"

namespace conformance::core {

// One variable (TensorFlow's Var). `mu` is the variable's lock: exclusive for use_locking
// updates, shared otherwise (TF_MaybeLockVariableInputMutexesInOrder).
struct Variable {
  TF_DataType dtype = TF_FLOAT;
  Tensor tensor;
  bool is_initialized = false;
  // Sparse access put the variable in copy-on-read mode: from then on every update copies.
  bool copy_on_read_mode = false;
  std::shared_mutex mu;
};

class CONFORMANCE_CORE_API VariableStore {
 public:
  // The process's store (TensorFlow has one resource manager per device; one store serves
  // every device of the harness, since a handle names its variable uniquely).
  static VariableStore& Default();

  // A new initialized variable holding `value` (shared, not copied); returns its handle.
  Tensor Create(Tensor value);
  // A new variable of `dtype` with no value yet (VarHandleOp alone); TF_AssignVariable
  // initializes it.
  Tensor CreateUninitialized(TF_DataType dtype);
  // The variable's current value (shares the buffer: while the caller holds it, the next
  // update copies first). FAILED_PRECONDITION for an uninitialized variable, NOT_FOUND for an
  // unknown or destroyed handle.
  Status Read(const Tensor& handle, Tensor* value) const;
  // Replaces the value (AssignVariableOp).
  Status Assign(const Tensor& handle, Tensor value);
  // Forgets the variable; its buffer is released once nobody else holds it.
  void Destroy(const Tensor& handle);
  // The variable a handle names; NOT_FOUND with TensorFlow's text when there is none, and
  // INVALID_ARGUMENT when `handle` is not a DT_RESOURCE scalar.
  Status Lookup(const Tensor& handle, std::shared_ptr<Variable>* variable) const;
  std::size_t size() const;

 private:
  mutable std::mutex mu_;
  std::map<uint64_t, std::shared_ptr<Variable>> variables_;
  uint64_t next_id_ = 1;
};

// The handle tensor of variable `id` (a DT_RESOURCE scalar in host memory).
CONFORMANCE_CORE_API Tensor MakeResourceHandle(uint64_t id);

}  // namespace conformance::core
