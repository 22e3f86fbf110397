// tf_tensor.h: TF_Tensor handles. Each handle is a Tensor sharing a refcounted buffer.
#include <cstdint>
#include <cstring>

#include "core/datatype.h"
#include "core/live_handles.h"
#include "core/tensor.h"
#include "core/unimplemented.h"

namespace core = conformance::core;

namespace {

// TensorFlow's CreateTensor: a buffer shorter than the shape needs is rejected (nullptr),
// which drops the last reference and so runs the deallocator; longer is accepted.
TF_Tensor* CreateTensor(TF_DataType dtype, core::Shape shape,
                        std::shared_ptr<core::TensorBuffer> buffer, size_t len) {
  core::Tensor tensor(dtype, std::move(shape), std::move(buffer));
  const size_t element_size = core::DataTypeSize(dtype);
  if (element_size > 0 && len < element_size * static_cast<size_t>(tensor.NumElements())) {
    return nullptr;
  }
  return core::NewTensorHandle(std::move(tensor));
}

std::shared_ptr<core::TensorBuffer> AllocateHostBuffer(size_t len) {
  std::shared_ptr<core::MemoryAllocator> allocator = core::HostAllocator();
  void* data = allocator->Allocate(len);
  return std::make_shared<core::TensorBuffer>(
      data, len, [allocator](void* p, size_t n) { allocator->Deallocate(p, n); },
      /*owns_memory=*/true);
}

}  // namespace

extern "C" {

TF_Tensor* TF_NewTensor(TF_DataType dtype, const int64_t* dims, int num_dims, void* data,
                        size_t len, void (*deallocator)(void* data, size_t len, void* arg),
                        void* deallocator_arg) {
  core::Shape shape = core::ShapeFromDims("TF_NewTensor", dims, num_dims);
  std::shared_ptr<core::TensorBuffer> buffer;
  const bool misaligned = reinterpret_cast<std::uintptr_t>(data) % core::kDefaultAlignment != 0;
  if (dtype != TF_STRING && dtype != TF_RESOURCE && core::CanMemcpy(dtype) && misaligned) {
    // Like TensorFlow: copy misaligned POD data into an aligned buffer and give the
    // caller's memory back at once.
    buffer = AllocateHostBuffer(len);
    if (len > 0) std::memcpy(buffer->data(), data, len);
    if (deallocator != nullptr) deallocator(data, len, deallocator_arg);
  } else {
    // A NULL deallocator means "nothing to free" here (TensorFlow would call it).
    core::TensorBuffer::Release release;
    if (deallocator != nullptr) {
      release = [deallocator, deallocator_arg](void* p, size_t n) {
        deallocator(p, n, deallocator_arg);
      };
    }
    buffer = std::make_shared<core::TensorBuffer>(data, len, std::move(release),
                                                  /*owns_memory=*/false);
  }
  return CreateTensor(dtype, std::move(shape), std::move(buffer), len);
}

TF_Tensor* TF_AllocateTensor(TF_DataType dtype, const int64_t* dims, int num_dims, size_t len) {
  core::Shape shape = core::ShapeFromDims("TF_AllocateTensor", dims, num_dims);
  return CreateTensor(dtype, std::move(shape), AllocateHostBuffer(len), len);
}

size_t TF_TensorDefaultAlignment(void) { return core::kDefaultAlignment; }

// TensorFlow returns the same handle when the buffer is core-owned and unshared.
TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor) {
  return tensor->tensor.RefCountIsOne() ? tensor : nullptr;
}

void TF_DeleteTensor(TF_Tensor* t) {
  if (t == nullptr) return;
  core::CountLive(&core::LiveHandles::tensors, -1);
  delete t;
}

TF_DataType TF_TensorType(const TF_Tensor* t) { return t->tensor.dtype(); }

void TF_SetShape(TF_Tensor* tensor, const int64_t* dims, int num_dims) {
  tensor->tensor.set_shape(core::ShapeFromDims("TF_SetShape", dims, num_dims));
}

int TF_NumDims(const TF_Tensor* t) { return t->tensor.dims(); }

int64_t TF_Dim(const TF_Tensor* tensor, int dim_index) {
  if (dim_index < 0 || dim_index >= tensor->tensor.dims()) {
    core::Fatal("TF_Dim", "dimension index " + std::to_string(dim_index) +
                              " out of range for a tensor of rank " +
                              std::to_string(tensor->tensor.dims()));
  }
  return tensor->tensor.dim(dim_index);
}

size_t TF_TensorByteSize(const TF_Tensor* t) { return t->tensor.ByteSize(); }

void* TF_TensorData(const TF_Tensor* t) { return t->tensor.data(); }

int64_t TF_TensorElementCount(const TF_Tensor* tensor) { return tensor->tensor.NumElements(); }

void TF_TensorBitcastFrom(const TF_Tensor* from, TF_DataType type, TF_Tensor* to,
                          const int64_t* new_dims, int num_new_dims, TF_Status* status) {
  core::Shape shape;
  for (int i = 0; i < num_new_dims; ++i) {
    if (new_dims[i] < 0) {
      status->status = core::Status::Error(
          TF_INVALID_ARGUMENT, "Expected a non-negative size, got " + std::to_string(new_dims[i]));
      return;
    }
    shape.push_back(new_dims[i]);
  }
  const size_t in_size = core::DataTypeSize(from->tensor.dtype());
  const size_t out_size = core::DataTypeSize(type);
  core::Status result;
  if (in_size == 0) {
    result = core::Status::Error(TF_INVALID_ARGUMENT, "other tensor has zero-sized data type");
  } else if (out_size == 0) {
    result = core::Status::Error(TF_INVALID_ARGUMENT, "specified output type is zero-sized");
  } else if (static_cast<size_t>(core::NumElements(shape)) * out_size !=
             static_cast<size_t>(from->tensor.NumElements()) * in_size) {
    result = core::Status::Error(TF_INVALID_ARGUMENT,
                                 "input and output shapes/data type sizes are not compatible");
  } else {
    to->tensor = core::Tensor(type, std::move(shape), from->tensor.buffer());
  }
  status->status = result;
}

bool TF_TensorIsAligned(const TF_Tensor* t) { return t->tensor.IsAligned(); }

}  // extern "C"
