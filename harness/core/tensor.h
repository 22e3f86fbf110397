#pragma once
// Tensors as the core sees them: a dtype, a shape and a shared, reference-counted buffer.
// Every TF_Tensor handle handed to a plugin and every input/output slot of a kernel
// context is a Tensor; copies share the buffer, and the buffer's release callback (a
// TF_NewTensor deallocator, an allocator's Deallocate) runs exactly once, when the last
// view goes away.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/allocator.h"
#include "core/export.h"
#include "core/status.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_tensor.h"

namespace conformance::core {

class CONFORMANCE_CORE_API TensorBuffer {
 public:
  using Release = std::function<void(void* data, std::size_t size)>;
  // `owns_memory`: the core allocated the bytes (TF_AllocateTensor, allocators), as
  // opposed to wrapping caller memory (TF_NewTensor). Only owned, unshared buffers may
  // be moved (TF_TensorMaybeMove) or forwarded from an input to an output.
  TensorBuffer(void* data, std::size_t size, Release release, bool owns_memory);
  ~TensorBuffer();
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool owns_memory() const { return owns_memory_; }

 private:
  void* data_;
  std::size_t size_;
  Release release_;
  bool owns_memory_;
};

using Shape = std::vector<int64_t>;

// "[2,3]" ("[]" for scalars), TensorFlow's TensorShape::DebugString.
CONFORMANCE_CORE_API std::string ShapeString(const Shape& shape);
// Product of the dimensions (1 for scalars).
CONFORMANCE_CORE_API int64_t NumElements(const Shape& shape);

class CONFORMANCE_CORE_API Tensor {
 public:
  // An uninitialized tensor (no buffer), like a default tensorflow::Tensor.
  Tensor() = default;
  Tensor(TF_DataType dtype, Shape shape, std::shared_ptr<TensorBuffer> buffer);

  // NumElements * DataTypeSize bytes from `allocator` (host by default). Zero-element
  // tensors get no buffer, as in TensorFlow. Fails with RESOURCE_EXHAUSTED (TensorFlow's
  // OOM text; `device_name` is named in it when given) when the allocator returns nullptr.
  static Tensor Allocate(TF_DataType dtype, Shape shape, Status* status,
                         const std::shared_ptr<MemoryAllocator>& allocator = HostAllocator(),
                         const std::string& device_name = "");

  // A host tensor holding a copy of `values` (sizeof(T) must equal the dtype's size).
  template <typename T>
  static Tensor FromVector(TF_DataType dtype, Shape shape, const std::vector<T>& values);
  // A host scalar / vector of the natural dtype (float, double, int32_t, int64_t, ...).
  template <typename T>
  static Tensor Scalar(TF_DataType dtype, T value) {
    return FromVector<T>(dtype, {}, {value});
  }

  TF_DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int dims() const { return static_cast<int>(shape_.size()); }
  int64_t dim(int i) const { return shape_.at(static_cast<std::size_t>(i)); }
  int64_t NumElements() const { return core::NumElements(shape_); }

  void* data() const { return buffer_ ? buffer_->data() : nullptr; }
  // Size of the buffer (not of the shape): what TF_TensorByteSize reports.
  std::size_t ByteSize() const { return buffer_ ? buffer_->size() : 0; }
  const std::shared_ptr<TensorBuffer>& buffer() const { return buffer_; }

  // TensorFlow's Tensor::IsInitialized: has a buffer, or has no elements.
  bool IsInitialized() const;
  // TensorFlow's Tensor::IsAligned with 64-byte alignment.
  bool IsAligned() const;
  // Unshared buffer that the core owns: TensorFlow's RefCountIsOne(), which gates
  // TF_TensorMaybeMove and input forwarding.
  bool RefCountIsOne() const;
  bool SharesBufferWith(const Tensor& other) const {
    return buffer_ != nullptr && buffer_ == other.buffer_;
  }

  void set_shape(Shape shape) { shape_ = std::move(shape); }
  void set_dtype(TF_DataType dtype) { dtype_ = dtype; }

  // Copies the elements of a host tensor out (sizeof(T) must equal the dtype's size).
  template <typename T>
  std::vector<T> ToVector() const;

 private:
  TF_DataType dtype_ = TF_FLOAT;
  Shape shape_;
  std::shared_ptr<TensorBuffer> buffer_;
};

template <typename T>
Tensor Tensor::FromVector(TF_DataType dtype, Shape shape, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  Status status;
  Tensor t = Allocate(dtype, std::move(shape), &status);
  if (t.data() != nullptr) {
    std::memcpy(t.data(), values.data(), std::min(t.ByteSize(), values.size() * sizeof(T)));
  }
  return t;
}

template <typename T>
std::vector<T> Tensor::ToVector() const {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> out(data() == nullptr ? 0 : ByteSize() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), data(), out.size() * sizeof(T));
  out.resize(std::min<std::size_t>(out.size(), static_cast<std::size_t>(NumElements())));
  return out;
}

}  // namespace conformance::core

// The object behind the opaque TF_Tensor handle of tf_tensor.h.
struct TF_Tensor {
  conformance::core::Tensor tensor;
};

namespace conformance::core {

// A new handle (counted as a live tensor in the Recorder); release with TF_DeleteTensor.
CONFORMANCE_CORE_API TF_Tensor* NewTensorHandle(Tensor tensor);

// The handle TensorFlow gives a plugin for a tensor it holds (TF_TensorFromTensor):
// shares the buffer; an uninitialized tensor is FAILED_PRECONDITION "attempt to use a
// tensor with an uninitialized value" (nullptr returned); a zero-element tensor gets a
// fresh empty buffer rather than sharing.
CONFORMANCE_CORE_API TF_Tensor* TensorHandleForPlugin(const Tensor& tensor, Status* status);

// Reads dims[0, num_dims) into a Shape; a negative size is a TensorFlow CHECK failure,
// reported through Fatal(function, ...).
Shape ShapeFromDims(const char* function, const int64_t* dims, int num_dims);

}  // namespace conformance::core
