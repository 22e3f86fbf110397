#include "core/variables.h"

#include <cstring>
#include <string>

#include "core/datatype.h"

namespace conformance::core {
namespace {

// The id a handle carries (0 when the tensor is not a handle).
uint64_t HandleId(const Tensor& handle) {
  if (handle.dtype() != TF_RESOURCE || handle.dims() != 0 || handle.ByteSize() < sizeof(uint64_t))
    return 0;
  uint64_t id = 0;
  std::memcpy(&id, handle.data(), sizeof(id));
  return id;
}

}  // namespace

Tensor MakeResourceHandle(uint64_t id) {
  Tensor handle = Tensor::FromVector<uint64_t>(TF_UINT64, {}, {id});
  handle.set_dtype(TF_RESOURCE);
  return handle;
}

VariableStore& VariableStore::Default() {
  static VariableStore* store = new VariableStore();  // never destroyed: plugins may outlive it
  return *store;
}

Tensor VariableStore::Create(Tensor value) {
  auto variable = std::make_shared<Variable>();
  variable->dtype = value.dtype();
  variable->tensor = std::move(value);
  variable->is_initialized = true;
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t id = next_id_++;
  variables_[id] = std::move(variable);
  return MakeResourceHandle(id);
}

Tensor VariableStore::CreateUninitialized(TF_DataType dtype) {
  auto variable = std::make_shared<Variable>();
  variable->dtype = dtype;
  variable->tensor = Tensor(dtype, {}, nullptr);
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t id = next_id_++;
  variables_[id] = std::move(variable);
  return MakeResourceHandle(id);
}

Status VariableStore::Lookup(const Tensor& handle, std::shared_ptr<Variable>* variable) const {
  const uint64_t id = HandleId(handle);
  if (id == 0) {
    return Status::Error(TF_INVALID_ARGUMENT, "expected a DT_RESOURCE scalar handle, got a " +
                                                  DataTypeName(handle.dtype()) +
                                                  " tensor of shape " +
                                                  ShapeString(handle.shape()));
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = variables_.find(id);
  if (it == variables_.end()) {
    // TensorFlow's ResourceMgr text: container/name/type.
    return Status::Error(TF_NOT_FOUND, "Resource localhost/variable_" + std::to_string(id) +
                                           "/N10tensorflow3VarE does not exist.");
  }
  *variable = it->second;
  return Status::Ok();
}

Status VariableStore::Read(const Tensor& handle, Tensor* value) const {
  std::shared_ptr<Variable> variable;
  if (Status s = Lookup(handle, &variable); !s.ok()) return s;
  std::shared_lock<std::shared_mutex> lock(variable->mu);
  if (!variable->is_initialized) {
    return Status::Error(TF_FAILED_PRECONDITION,
                         "Read variable failure: the variable was uninitialized.");
  }
  *value = variable->tensor;
  return Status::Ok();
}

Status VariableStore::Assign(const Tensor& handle, Tensor value) {
  std::shared_ptr<Variable> variable;
  if (Status s = Lookup(handle, &variable); !s.ok()) return s;
  std::unique_lock<std::shared_mutex> lock(variable->mu);
  variable->dtype = value.dtype();
  variable->tensor = std::move(value);
  variable->is_initialized = true;
  return Status::Ok();
}

void VariableStore::Destroy(const Tensor& handle) {
  std::lock_guard<std::mutex> lock(mu_);
  variables_.erase(HandleId(handle));
}

std::size_t VariableStore::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return variables_.size();
}

}  // namespace conformance::core
