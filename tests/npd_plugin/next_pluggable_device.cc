// TFNPD_Api over host memory: the simulated device's memory is host memory, every transfer
// completes before it returns, so every event is born ready.
#include "next_pluggable_device.h"

#include <cstdlib>
#include <cstring>

#include "tensorflow/c/tf_tensor.h"

// The opaque C types are the plugin's to define.
struct TFNPD_DeviceEvent {};  // complete when created: all work here is synchronous
struct TFNPD_DeviceAllocator {
  int ordinal;
};
struct TFNPD_DeviceContext {
  int ordinal;
};

namespace reference_plugin::npd {
namespace {

constexpr char kAllocatorName[] = "reference_npd_host";

TFNPD_DeviceEvent* new_event() { return new TFNPD_DeviceEvent{}; }
void await_event(TFNPD_DeviceEvent*, TF_Status* status) { report_status(status, Status()); }
bool event_is_ready(TFNPD_DeviceEvent*) { return true; }
void event_and_then(TFNPD_DeviceEvent*, void (*callback)(void*), void* arg) { callback(arg); }
void delete_event(TFNPD_DeviceEvent* event) { delete event; }

TFNPD_DeviceAllocator* create_allocator(int ordinal) { return new TFNPD_DeviceAllocator{ordinal}; }
// aligned_alloc needs a power-of-two alignment of at least sizeof(void*) and a size that is a
// multiple of it; TensorFlow asks for at least 64 bytes.
void* allocate_raw(TFNPD_DeviceAllocator*, size_t alignment, size_t num_bytes) {
  size_t align = alignment < sizeof(void*) ? sizeof(void*) : alignment;
  if ((align & (align - 1)) != 0) return nullptr;
  const size_t size = (num_bytes + align - 1) / align * align;
  return std::aligned_alloc(align, size == 0 ? align : size);
}
void deallocate_raw(TFNPD_DeviceAllocator*, void* ptr) { std::free(ptr); }
TF_StringView allocator_name(TFNPD_DeviceAllocator*) {
  return TF_StringView{kAllocatorName, sizeof(kAllocatorName) - 1};
}
bool allocates_opaque_handle(TFNPD_DeviceAllocator*) { return false; }
void delete_allocator(TFNPD_DeviceAllocator* allocator) { delete allocator; }

TFNPD_DeviceContext* create_context(int ordinal) { return new TFNPD_DeviceContext{ordinal}; }
void delete_context(TFNPD_DeviceContext* context) { delete context; }

// Both directions are a byte copy between tensors of equal size.
TFNPD_DeviceEvent* copy_tensor(const TF_Tensor* from, TF_Tensor* to, TF_Status* status) {
  const size_t bytes = TF_TensorByteSize(from);
  if (TF_TensorByteSize(to) != bytes) {
    report_status(status, invalid_argument("tensor copy between buffers of ", bytes, " and ",
                                           TF_TensorByteSize(to), " bytes"));
    return nullptr;
  }
  if (bytes != 0) std::memcpy(TF_TensorData(to), TF_TensorData(from), bytes);
  report_status(status, Status());
  return new_event();
}
TFNPD_DeviceEvent* device_to_host(TFNPD_DeviceContext*, const TF_Tensor* device_tensor,
                                  TF_Tensor* cpu_tensor, TF_Status* status) {
  return copy_tensor(device_tensor, cpu_tensor, status);
}
TFNPD_DeviceEvent* host_to_device(TFNPD_DeviceContext*, const TF_Tensor* cpu_tensor,
                                  TF_Tensor* device_tensor, TF_Status* status) {
  return copy_tensor(cpu_tensor, device_tensor, status);
}
// Same-device copies are done by the caller on host memory; nothing is pending.
TFNPD_DeviceEvent* same_device_copy(TFNPD_DeviceContext*) { return new_event(); }
// PJRT buffers belong to a PJRT client; this plugin has none.
PJRT_Buffer* same_device_pjrt_copy(PJRT_Buffer*, PJRT_Client*, TF_Status* status) {
  report_status(status, Status(TF_UNIMPLEMENTED, "the reference plugin has no PJRT client"));
  return nullptr;
}

// Device shapes are an XLA compiler's business; this plugin has none.
void xla_shape_to_device_shape(XLA_Shape*, int, bool, XLA_LayoutPreference, XLA_Shape*,
                               TF_Status* status) {
  report_status(status, Status(TF_UNIMPLEMENTED,
                               "the reference plugin has no XLA compiler for device shapes"));
}

int32_t device_count(TF_Status* status) {
  report_status(status, Status());
  return 1;
}
void init_device_states(TF_Status* status) { report_status(status, Status()); }

const TFNPD_Api kApi = {
    TFNPD_Api_STRUCT_SIZE,
    nullptr,  // priv
    new_event,
    await_event,
    event_is_ready,
    event_and_then,
    delete_event,
    create_allocator,
    allocate_raw,
    deallocate_raw,
    allocator_name,
    allocates_opaque_handle,
    delete_allocator,
    create_context,
    delete_context,
    device_to_host,
    host_to_device,
    same_device_copy,
    same_device_pjrt_copy,
    xla_shape_to_device_shape,
    device_count,
    init_device_states,
};

}  // namespace

const TFNPD_Api* init_plugin(TFNPD_PluginParams* params, Status* status) {
  if (params == nullptr) {
    *status = invalid_argument("TFNPD_InitPlugin: params is NULL");
    return nullptr;
  }
  params->device_type = kNpdDeviceType;
  params->compilation_device_name = kNpdCompilationDeviceName;
  params->priority = 0;
  params->is_pluggable_device = true;
  *status = Status();
  return &kApi;
}

}  // namespace reference_plugin::npd
