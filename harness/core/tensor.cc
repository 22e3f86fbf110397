#include "core/tensor.h"

#include <cstdint>
#include <optional>

#include "core/datatype.h"
#include "core/live_handles.h"
#include "core/string_elements.h"
#include "core/unimplemented.h"

namespace conformance::core {

TensorBuffer::TensorBuffer(void* data, std::size_t size, Release release, bool owns_memory)
    : data_(data), size_(size), release_(std::move(release)), owns_memory_(owns_memory) {}

TensorBuffer::~TensorBuffer() {
  if (release_) release_(data_, size_);
}

std::string ShapeString(const Shape& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Tensor::Tensor(TF_DataType dtype, Shape shape, std::shared_ptr<TensorBuffer> buffer)
    : dtype_(dtype), shape_(std::move(shape)), buffer_(std::move(buffer)) {}

namespace {

// The tensor's bytes, or nullopt when the count does not fit a size_t. TensorFlow's typed
// allocator refuses such a request itself (a NULL buffer, hence the OOM status) before any
// allocator sees it; a plain product would wrap and ask for a few bytes instead.
std::optional<std::size_t> CheckedTensorBytes(const Shape& shape, std::size_t element_size) {
  std::size_t bytes = element_size;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(bytes, static_cast<std::size_t>(d), &bytes))
      return std::nullopt;
  }
  return bytes;
}

}  // namespace

Tensor Tensor::Allocate(TF_DataType dtype, Shape shape, Status* status,
                        const std::shared_ptr<MemoryAllocator>& allocator,
                        const std::string& device_name) {
  *status = Status::Ok();
  for (int64_t d : shape) {
    if (d == 0) return Tensor(dtype, std::move(shape), nullptr);
  }
  const bool strings = dtype == TF_STRING;
  const std::size_t element_size = strings ? StringElementSize() : DataTypeSize(dtype);
  if (element_size == 0) {
    // Resource and variant elements are C++ objects in TensorFlow; the mock core has no
    // representation for them.
    *status = Status::Error(TF_UNIMPLEMENTED,
                            "allocating " + DataTypeName(dtype) +
                                " tensors is not implemented by the plugin_conformance mock core");
    return Tensor();
  }
  const std::optional<std::size_t> checked = CheckedTensorBytes(shape, element_size);
  const std::size_t bytes = checked.value_or(0);
  void* data = checked ? allocator->Allocate(bytes) : nullptr;
  if (data == nullptr) {
    *status =
        Status::Error(TF_RESOURCE_EXHAUSTED,
                      "OOM when allocating tensor with shape" + ShapeString(shape) + " and type " +
                          DataTypeName(dtype) + (device_name.empty() ? "" : " on " + device_name) +
                          " by allocator " + allocator->Name());
    return Tensor();
  }
  if (!strings) {
    auto buffer = std::make_shared<TensorBuffer>(
        data, bytes, [allocator](void* p, std::size_t n) { allocator->Deallocate(p, n); },
        /*owns_memory=*/true);
    return Tensor(dtype, std::move(shape), std::move(buffer));
  }
  // String elements start empty, and the large strings a kernel writes into them are its
  // tensor's to free (TensorFlow's tstring destructors).
  const int64_t count = core::NumElements(shape);
  InitStringElements(data, count);
  auto buffer = std::make_shared<TensorBuffer>(
      data, bytes,
      [allocator, count](void* p, std::size_t n) {
        DeallocStringElements(p, count);
        allocator->Deallocate(p, n);
      },
      /*owns_memory=*/true);
  return Tensor(dtype, std::move(shape), std::move(buffer));
}

bool Tensor::IsInitialized() const {
  return (buffer_ != nullptr && buffer_->data() != nullptr) || NumElements() == 0;
}

bool Tensor::IsAligned() const {
  if (dtype_ == TF_STRING || NumElements() == 0) return true;
  return reinterpret_cast<std::uintptr_t>(data()) % kDefaultAlignment == 0;
}

bool Tensor::RefCountIsOne() const {
  return buffer_ != nullptr && buffer_.use_count() == 1 && buffer_->owns_memory();
}

TF_Tensor* NewTensorHandle(Tensor tensor) {
  CountLive(&LiveHandles::tensors, +1);
  return new TF_Tensor{std::move(tensor)};
}

TF_Tensor* TensorHandleForPlugin(const Tensor& tensor, Status* status) {
  *status = Status::Ok();
  if (!tensor.IsInitialized()) {
    *status = Status::Error(TF_FAILED_PRECONDITION,
                            "attempt to use a tensor with an uninitialized value");
    return nullptr;
  }
  if (tensor.NumElements() == 0) {
    // TensorFlow wraps a static byte with a no-op deallocator instead of sharing.
    static char empty;
    auto buffer = std::make_shared<TensorBuffer>(&empty, 0, nullptr, /*owns_memory=*/false);
    return NewTensorHandle(Tensor(tensor.dtype(), tensor.shape(), std::move(buffer)));
  }
  return NewTensorHandle(tensor);
}

Shape ShapeFromDims(const char* function, const int64_t* dims, int num_dims) {
  Shape shape;
  for (int i = 0; i < num_dims; ++i) {
    if (dims[i] < 0) {
      Fatal(function, "dimension " + std::to_string(i) + " is " + std::to_string(dims[i]) +
                          "; TensorFlow's TensorShape CHECK-fails on negative sizes");
    }
    shape.push_back(dims[i]);
  }
  return shape;
}

}  // namespace conformance::core
