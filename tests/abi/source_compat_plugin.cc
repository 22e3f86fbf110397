// Source-compatibility probe, C++ edition: the shape of a typical C++ PluggableDevice plugin
// written against TensorFlow's headers (C++20 designated initialisers in declaration order,
// lambdas as callbacks, RAII around TF_Status, entry points defined without `extern "C"` and
// relying on the headers' declarations for C linkage). Only compiled, never linked or loaded;
// the abi_source_compat_symbols test checks the entry points come out unmangled.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/logging.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#define PLUGIN_EXPORT __attribute__((visibility("default")))

struct SP_Stream_st {
  std::vector<int> pending;
};
struct SP_Event_st {
  SE_EventStatus state = SE_EVENT_PENDING;
};
struct SP_Timer_st {
  std::uint64_t start_ns = 0;
};

namespace {

constexpr char kDeviceType[] = "MY_DEVICE";
constexpr char kPlatformName[] = "MY_PLATFORM";

struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
using StatusPtr = std::unique_ptr<TF_Status, StatusDeleter>;

void Ok(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

void Allocate(const SP_Device*, std::uint64_t size, std::int64_t, SP_DeviceMemoryBase* mem) {
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = std::malloc(size);
  mem->size = mem->opaque != nullptr ? size : 0;
}

void Deallocate(const SP_Device*, SP_DeviceMemoryBase* memory) {
  std::free(memory->opaque);
  memory->opaque = nullptr;
}

void CreateStream(const SP_Device*, SP_Stream* stream, TF_Status* status) {
  *stream = new (std::nothrow) SP_Stream_st;
  if (*stream == nullptr) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  Ok(status);
}

void CreateEvent(const SP_Device*, SP_Event* event, TF_Status* status) {
  *event = new SP_Event_st;
  Ok(status);
}

void MemcpyDtoH(const SP_Device*, SP_Stream, void* host_dst, const SP_DeviceMemoryBase* device_src,
                std::uint64_t size, TF_Status* status) {
  std::memcpy(host_dst, device_src->opaque, size);
  Ok(status);
}

void MemcpyHtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* device_dst, const void* host_src,
                std::uint64_t size, TF_Status* status) {
  std::memcpy(device_dst->opaque, host_src, size);
  Ok(status);
}

void MemcpyDtoD(const SP_Device*, SP_Stream, SP_DeviceMemoryBase* device_dst,
                const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
  std::memcpy(device_dst->opaque, device_src->opaque, size);
  Ok(status);
}

void CreateStreamExecutor(const SP_Platform*, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  *params->stream_executor = SP_StreamExecutor{
      .struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE,
      .ext = nullptr,
      .allocate = Allocate,
      .deallocate = Deallocate,
      .host_memory_allocate = [](const SP_Device*,
                                 std::uint64_t size) { return std::malloc(size); },
      .host_memory_deallocate = [](const SP_Device*, void* mem) { std::free(mem); },
      .unified_memory_allocate = nullptr,
      .unified_memory_deallocate = nullptr,
      .get_allocator_stats = [](const SP_Device*, SP_AllocatorStats* stats) -> TF_Bool {
        stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
        return 1;
      },
      .device_memory_usage = [](const SP_Device*, std::int64_t* free_bytes,
                                std::int64_t* total_bytes) -> TF_Bool {
        *free_bytes = *total_bytes = std::int64_t{1} << 30;
        return 1;
      },
      .create_stream = CreateStream,
      .destroy_stream = [](const SP_Device*, SP_Stream stream) { delete stream; },
      .create_stream_dependency = [](const SP_Device*, SP_Stream, SP_Stream,
                                     TF_Status* status) { Ok(status); },
      .get_stream_status = [](const SP_Device*, SP_Stream, TF_Status* status) { Ok(status); },
      .create_event = CreateEvent,
      .destroy_event = [](const SP_Device*, SP_Event event) { delete event; },
      .get_event_status = [](const SP_Device*, SP_Event event) { return event->state; },
      .record_event =
          [](const SP_Device*, SP_Stream, SP_Event event, TF_Status* status) {
            event->state = SE_EVENT_COMPLETE;
            Ok(status);
          },
      .wait_for_event = [](const SP_Device* const, SP_Stream, SP_Event,
                           TF_Status* const status) { Ok(status); },
      .create_timer = nullptr,
      .destroy_timer = nullptr,
      .start_timer = nullptr,
      .stop_timer = nullptr,
      .memcpy_dtoh = MemcpyDtoH,
      .memcpy_htod = MemcpyHtoD,
      .memcpy_dtod = MemcpyDtoD,
      .sync_memcpy_dtoh =
          [](const SP_Device* device, void* host_dst, const SP_DeviceMemoryBase* device_src,
             std::uint64_t size, TF_Status* status) {
            MemcpyDtoH(device, nullptr, host_dst, device_src, size, status);
          },
      .sync_memcpy_htod =
          [](const SP_Device* device, SP_DeviceMemoryBase* device_dst, const void* host_src,
             std::uint64_t size, TF_Status* status) {
            MemcpyHtoD(device, nullptr, device_dst, host_src, size, status);
          },
      .sync_memcpy_dtod =
          [](const SP_Device* device, SP_DeviceMemoryBase* device_dst,
             const SP_DeviceMemoryBase* device_src, std::uint64_t size, TF_Status* status) {
            MemcpyDtoD(device, nullptr, device_dst, device_src, size, status);
          },
      .block_host_for_event = [](const SP_Device*, SP_Event, TF_Status* status) { Ok(status); },
      .block_host_until_done = nullptr,
      .synchronize_all_activity = [](const SP_Device*, TF_Status* status) { Ok(status); },
      .mem_zero =
          [](const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, std::uint64_t size,
             TF_Status* status) {
            std::memset(location->opaque, 0, size);
            Ok(status);
          },
      .memset =
          [](const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, std::uint8_t pattern,
             std::uint64_t size, TF_Status* status) {
            std::memset(location->opaque, pattern, size);
            Ok(status);
          },
      .memset32 =
          [](const SP_Device*, SP_Stream, SP_DeviceMemoryBase* location, std::uint32_t pattern,
             std::uint64_t size, TF_Status* status) {
            auto* words = static_cast<std::uint32_t*>(location->opaque);
            for (std::uint64_t i = 0; i < size / sizeof(std::uint32_t); ++i) words[i] = pattern;
            Ok(status);
          },
      .host_callback = [](const SP_Device*, SP_Stream, SE_StatusCallbackFn callback_fn,
                          void* callback_arg) -> TF_Bool {
        StatusPtr status(TF_NewStatus());
        callback_fn(callback_arg, status.get());
        return 1;
      },
  };
  Ok(status);
}

}  // namespace

PLUGIN_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  *params->platform = SP_Platform{
      .struct_size = SP_PLATFORM_STRUCT_SIZE,
      .ext = nullptr,
      .name = kPlatformName,
      .type = kDeviceType,
      .supports_unified_memory = false,
      .use_bfc_allocator = true,
      .force_memory_growth = false,
  };
  *params->platform_fns = SP_PlatformFns{
      .struct_size = SP_PLATFORM_FNS_STRUCT_SIZE,
      .ext = nullptr,
      .get_device_count =
          [](const SP_Platform*, int* count, TF_Status* s) {
            *count = 1;
            Ok(s);
          },
      .create_device =
          [](const SP_Platform*, SE_CreateDeviceParams* p, TF_Status* s) {
            *p->device = SP_Device{.struct_size = SP_DEVICE_STRUCT_SIZE,
                                   .ext = nullptr,
                                   .ordinal = p->ordinal,
                                   .device_handle = nullptr,
                                   .hardware_name = "source-compat device",
                                   .device_vendor = "conformance suite",
                                   .pci_bus_id = "0000:00:00.0"};
            Ok(s);
          },
      .destroy_device = [](const SP_Platform*, SP_Device*) {},
      .create_device_fns =
          [](const SP_Platform*, SE_CreateDeviceFnsParams* p, TF_Status* s) {
            p->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
            p->device_fns->get_numa_node = [](const SP_Device*) -> std::int32_t { return -1; };
            Ok(s);
          },
      .destroy_device_fns = [](const SP_Platform*, SP_DeviceFns*) {},
      .create_stream_executor = CreateStreamExecutor,
      .destroy_stream_executor = [](const SP_Platform*, SP_StreamExecutor*) {},
      .create_timer_fns = nullptr,
      .destroy_timer_fns = [](const SP_Platform*, SP_TimerFns*) {},
  };
  params->destroy_platform = [](SP_Platform*) {};
  params->destroy_platform_fns = [](SP_PlatformFns*) {};
  Ok(status);
}

namespace {

struct ScaleKernel {
  float factor = 1.0f;
};

void* ScaleCreate(TF_OpKernelConstruction* ctx) {
  auto* kernel = new ScaleKernel;
  StatusPtr status(TF_NewStatus());
  TF_OpKernelConstruction_GetAttrFloat(ctx, "factor", &kernel->factor, status.get());
  if (TF_GetCode(status.get()) != TF_OK) TF_OpKernelConstruction_Failure(ctx, status.get());
  return kernel;
}

void ScaleCompute(void* kernel, TF_OpKernelContext* ctx) {
  const auto* self = static_cast<const ScaleKernel*>(kernel);
  StatusPtr status(TF_NewStatus());
  TF_Tensor* input = nullptr;
  TF_GetInput(ctx, 0, &input, status.get());
  if (TF_GetCode(status.get()) != TF_OK) {
    TF_OpKernelContext_Failure(ctx, status.get());
    return;
  }
  std::vector<std::int64_t> dims(static_cast<std::size_t>(TF_NumDims(input)));
  for (std::size_t d = 0; d < dims.size(); ++d) dims[d] = TF_Dim(input, static_cast<int>(d));
  int forwarded = -1;
  const int candidates[] = {0};
  TF_Tensor* output = TF_ForwardInputOrAllocateOutput(
      ctx, candidates, 1, 0, dims.data(), static_cast<int>(dims.size()), &forwarded, status.get());
  TF_AllocatorAttributes attrs{.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE, .on_host = 1};
  TF_Tensor* scratch = TF_AllocateTemp(ctx, TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                                       &attrs, status.get());
  if (TF_GetCode(status.get()) == TF_OK && TF_GetStream(ctx, status.get()) != nullptr) {
    const auto* in = static_cast<const float*>(TF_TensorData(input));
    auto* out = static_cast<float*>(TF_TensorData(output));
    for (std::int64_t i = 0; i < TF_TensorElementCount(input); ++i) out[i] = in[i] * self->factor;
  }
  TF_StringView device = TF_GetDeviceName(ctx);
  static_cast<void>(device.data);
  TF_DeleteTensor(scratch);
  TF_DeleteTensor(output);
  TF_DeleteTensor(input);
}

}  // namespace

PLUGIN_EXPORT void TF_InitKernel() {
  StatusPtr status(TF_NewStatus());

  TF_OpDefinitionBuilder* op = TF_NewOpDefinitionBuilder("MyScale");
  TF_OpDefinitionBuilderAddInput(op, "x: float");
  TF_OpDefinitionBuilderAddOutput(op, "y: float");
  TF_OpDefinitionBuilderAddAttr(op, "factor: float = 1.0");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(
      op, [](TF_ShapeInferenceContext* ctx, TF_Status* s) {
        TF_ShapeHandle* shape = TF_NewShapeHandle();
        TF_ShapeInferenceContextGetInput(ctx, 0, shape, s);
        if (TF_GetCode(s) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, shape, s);
        TF_DeleteShapeHandle(shape);
      });
  TF_RegisterOpDefinition(op, status.get());

  TF_KernelBuilder* builder =
      TF_NewKernelBuilder("MyScale", kDeviceType, ScaleCreate, ScaleCompute,
                          [](void* kernel) { delete static_cast<ScaleKernel*>(kernel); });
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status.get());
  TF_KernelBuilder_Label(builder, "fast");
  TF_RegisterKernelBuilder("MyScaleOp", builder, status.get());

  builder = TF_NewKernelBuilder(
      "AssignVariableOp", kDeviceType, nullptr,
      [](void*, TF_OpKernelContext* ctx) {
        StatusPtr s(TF_NewStatus());
        TF_AssignVariable(
            ctx, 0, 1, /*validate_shape=*/true,
            [](TF_OpKernelContext*, TF_Tensor* source, TF_Tensor* dest) {
              std::memcpy(TF_TensorData(dest), TF_TensorData(source), TF_TensorByteSize(source));
              TF_DeleteTensor(source);
              TF_DeleteTensor(dest);
            },
            s.get());
        if (TF_IsRefInput(ctx, 0, s.get()))
          TF_OpKernelContext_ForwardRefInputToRefOutput(ctx, 0, 0);
      },
      nullptr);
  TF_RegisterKernelBuilder("AssignVariableOp", builder, status.get());
}

PLUGIN_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->device_type = kDeviceType;
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params->optimizer_configs->remapping = TF_TriState_Off;
  *params->optimizer = TP_Optimizer{
      .struct_size = TP_OPTIMIZER_STRUCT_SIZE,
      .ext = nullptr,
      .create_func = []() -> void* { return new int(0); },
      .optimize_func =
          [](void*, const TF_Buffer* in, const TF_GrapplerItem* item, TF_Buffer* out,
             TF_Status* s) {
            TF_GraphProperties* props = TF_NewGraphProperties(item);
            TF_InferStatically(props, true, false, false, false, s);
            TF_DeleteGraphProperties(props);
            out->data = in->data;
            out->length = in->length;
            out->data_deallocator = nullptr;
          },
      .destroy_func = [](void* optimizer) { delete static_cast<int*>(optimizer); },
  };
  Ok(status);
}

PLUGIN_EXPORT void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status) {
  params->struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
  *params->profiler = TP_Profiler{
      .struct_size = TP_PROFILER_STRUCT_SIZE, .ext = nullptr, .device_type = kDeviceType};
  *params->profiler_fns = TP_ProfilerFns{
      .struct_size = TP_PROFILER_FNS_STRUCT_SIZE,
      .ext = nullptr,
      .start = [](const TP_Profiler*, TF_Status* s) { Ok(s); },
      .stop = [](const TP_Profiler*, TF_Status* s) { Ok(s); },
      .collect_data_xspace =
          [](const TP_Profiler*, std::uint8_t*, std::size_t* size, TF_Status* s) {
            *size = 0;
            Ok(s);
          },
  };
  params->destroy_profiler = [](TP_Profiler*) {};
  params->destroy_profiler_fns = [](TP_ProfilerFns*) {};
  Ok(status);
}
