/* Source-compatibility probe: a small PluggableDevice plugin written the way plugins written
 * against TensorFlow's own headers look (TensorFlow include paths, designated initialisers,
 * TF_Bool, TF_OK, status objects, kernel builders, op registration, the four entry points with
 * TensorFlow's exact signatures). It is only compiled, never linked or loaded: if the project's
 * headers drift from TensorFlow's spelling, this stops building.
 *
 * Built with -fvisibility=hidden, so the entry points are exported explicitly, as real plugins
 * must do (the headers declare them without an export macro). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#define DEVICE_TYPE "MY_DEVICE"
#define PLATFORM_NAME "MY_PLATFORM"

/* The plugin defines the stream/event/timer handle types. */
struct SP_Stream_st {
  int id;
};
struct SP_Event_st {
  SE_EventStatus state;
};
struct SP_Timer_st {
  uint64_t start_ns;
};

/* ---- Device memory (host memory stands in for the device) --------------- */

static void plugin_allocate(const SP_Device* device, uint64_t size, int64_t memory_space,
                            SP_DeviceMemoryBase* mem) {
  (void)device;
  (void)memory_space;
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = malloc(size);
  mem->size = mem->opaque ? size : 0;
}

static void plugin_deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  (void)device;
  free(memory->opaque);
  memory->opaque = NULL;
  memory->size = 0;
}

static void* plugin_host_memory_allocate(const SP_Device* device, uint64_t size) {
  (void)device;
  return malloc(size);
}

static void plugin_host_memory_deallocate(const SP_Device* device, void* mem) {
  (void)device;
  free(mem);
}

static TF_Bool plugin_get_allocator_stats(const SP_Device* device, SP_AllocatorStats* stats) {
  (void)device;
  stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  stats->bytes_in_use = 0;
  stats->has_bytes_limit = 0;
  return 1;
}

static TF_Bool plugin_device_memory_usage(const SP_Device* device, int64_t* free_bytes,
                                          int64_t* total_bytes) {
  (void)device;
  *free_bytes = 1 << 30;
  *total_bytes = 1 << 30;
  return 1;
}

/* ---- Streams and events -------------------------------------------------- */

static void plugin_create_stream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  (void)device;
  *stream = (SP_Stream)calloc(1, sizeof(struct SP_Stream_st));
  if (*stream == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_destroy_stream(const SP_Device* device, SP_Stream stream) {
  (void)device;
  free(stream);
}

static void plugin_create_stream_dependency(const SP_Device* device, SP_Stream dependent,
                                            SP_Stream other, TF_Status* status) {
  (void)device;
  (void)dependent;
  (void)other;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_get_stream_status(const SP_Device* device, SP_Stream stream, TF_Status* status) {
  (void)device;
  (void)stream;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_create_event(const SP_Device* device, SP_Event* event, TF_Status* status) {
  (void)device;
  *event = (SP_Event)calloc(1, sizeof(struct SP_Event_st));
  if (*event == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  (*event)->state = SE_EVENT_PENDING;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_destroy_event(const SP_Device* device, SP_Event event) {
  (void)device;
  free(event);
}

static SE_EventStatus plugin_get_event_status(const SP_Device* device, SP_Event event) {
  (void)device;
  return event->state;
}

static void plugin_record_event(const SP_Device* device, SP_Stream stream, SP_Event event,
                                TF_Status* status) {
  (void)device;
  (void)stream;
  event->state = SE_EVENT_COMPLETE;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_wait_for_event(const SP_Device* const device, SP_Stream stream, SP_Event event,
                                  TF_Status* const status) {
  (void)device;
  (void)stream;
  (void)event;
  TF_SetStatus(status, TF_OK, "");
}

/* ---- Copies and fills ----------------------------------------------------- */

static void plugin_memcpy_dtoh(const SP_Device* device, SP_Stream stream, void* host_dst,
                               const SP_DeviceMemoryBase* device_src, uint64_t size,
                               TF_Status* status) {
  (void)device;
  (void)stream;
  memcpy(host_dst, device_src->opaque, size);
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_memcpy_htod(const SP_Device* device, SP_Stream stream,
                               SP_DeviceMemoryBase* device_dst, const void* host_src, uint64_t size,
                               TF_Status* status) {
  (void)device;
  (void)stream;
  memcpy(device_dst->opaque, host_src, size);
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_memcpy_dtod(const SP_Device* device, SP_Stream stream,
                               SP_DeviceMemoryBase* device_dst,
                               const SP_DeviceMemoryBase* device_src, uint64_t size,
                               TF_Status* status) {
  (void)device;
  (void)stream;
  memcpy(device_dst->opaque, device_src->opaque, size);
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_sync_memcpy_dtoh(const SP_Device* device, void* host_dst,
                                    const SP_DeviceMemoryBase* device_src, uint64_t size,
                                    TF_Status* status) {
  plugin_memcpy_dtoh(device, NULL, host_dst, device_src, size, status);
}

static void plugin_sync_memcpy_htod(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                                    const void* host_src, uint64_t size, TF_Status* status) {
  plugin_memcpy_htod(device, NULL, device_dst, host_src, size, status);
}

static void plugin_sync_memcpy_dtod(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                                    const SP_DeviceMemoryBase* device_src, uint64_t size,
                                    TF_Status* status) {
  plugin_memcpy_dtod(device, NULL, device_dst, device_src, size, status);
}

static void plugin_block_host_for_event(const SP_Device* device, SP_Event event,
                                        TF_Status* status) {
  (void)device;
  (void)event;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_synchronize_all_activity(const SP_Device* device, TF_Status* status) {
  (void)device;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_mem_zero(const SP_Device* device, SP_Stream stream,
                            SP_DeviceMemoryBase* location, uint64_t size, TF_Status* status) {
  (void)device;
  (void)stream;
  memset(location->opaque, 0, size);
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_memset(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
                          uint8_t pattern, uint64_t size, TF_Status* status) {
  (void)device;
  (void)stream;
  memset(location->opaque, pattern, size);
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_memset32(const SP_Device* device, SP_Stream stream,
                            SP_DeviceMemoryBase* location, uint32_t pattern, uint64_t size,
                            TF_Status* status) {
  uint32_t* words = (uint32_t*)location->opaque;
  (void)device;
  (void)stream;
  for (uint64_t i = 0; i < size / sizeof(uint32_t); ++i) words[i] = pattern;
  TF_SetStatus(status, TF_OK, "");
}

static TF_Bool plugin_host_callback(const SP_Device* device, SP_Stream stream,
                                    SE_StatusCallbackFn callback_fn, void* callback_arg) {
  TF_Status* status = TF_NewStatus();
  (void)device;
  (void)stream;
  callback_fn(callback_arg, status);
  TF_DeleteStatus(status);
  return 1;
}

/* ---- Platform -------------------------------------------------------------- */

static void plugin_get_device_count(const SP_Platform* platform, int* device_count,
                                    TF_Status* status) {
  (void)platform;
  *device_count = 1;
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_create_device(const SP_Platform* platform, SE_CreateDeviceParams* params,
                                 TF_Status* status) {
  (void)platform;
  *params->device = (SP_Device){
      .struct_size = SP_DEVICE_STRUCT_SIZE,
      .ordinal = params->ordinal,
      .device_handle = NULL,
      .hardware_name = "source-compat device",
      .device_vendor = "conformance suite",
      .pci_bus_id = "0000:00:00.0",
  };
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_destroy_device(const SP_Platform* platform, SP_Device* device) {
  (void)platform;
  device->device_handle = NULL;
}

static int32_t plugin_get_numa_node(const SP_Device* device) {
  (void)device;
  return -1;
}

static void plugin_create_device_fns(const SP_Platform* platform, SE_CreateDeviceFnsParams* params,
                                     TF_Status* status) {
  (void)platform;
  *params->device_fns = (SP_DeviceFns){
      .struct_size = SP_DEVICE_FNS_STRUCT_SIZE,
      .get_numa_node = plugin_get_numa_node,
  };
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_destroy_device_fns(const SP_Platform* platform, SP_DeviceFns* device_fns) {
  (void)platform;
  (void)device_fns;
}

static void plugin_create_stream_executor(const SP_Platform* platform,
                                          SE_CreateStreamExecutorParams* params,
                                          TF_Status* status) {
  (void)platform;
  *params->stream_executor = (SP_StreamExecutor){
      .struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE,
      .allocate = plugin_allocate,
      .deallocate = plugin_deallocate,
      .host_memory_allocate = plugin_host_memory_allocate,
      .host_memory_deallocate = plugin_host_memory_deallocate,
      .get_allocator_stats = plugin_get_allocator_stats,
      .device_memory_usage = plugin_device_memory_usage,
      .create_stream = plugin_create_stream,
      .destroy_stream = plugin_destroy_stream,
      .create_stream_dependency = plugin_create_stream_dependency,
      .get_stream_status = plugin_get_stream_status,
      .create_event = plugin_create_event,
      .destroy_event = plugin_destroy_event,
      .get_event_status = plugin_get_event_status,
      .record_event = plugin_record_event,
      .wait_for_event = plugin_wait_for_event,
      .memcpy_dtoh = plugin_memcpy_dtoh,
      .memcpy_htod = plugin_memcpy_htod,
      .memcpy_dtod = plugin_memcpy_dtod,
      .sync_memcpy_dtoh = plugin_sync_memcpy_dtoh,
      .sync_memcpy_htod = plugin_sync_memcpy_htod,
      .sync_memcpy_dtod = plugin_sync_memcpy_dtod,
      .block_host_for_event = plugin_block_host_for_event,
      .synchronize_all_activity = plugin_synchronize_all_activity,
      .mem_zero = plugin_mem_zero,
      .memset = plugin_memset,
      .memset32 = plugin_memset32,
      .host_callback = plugin_host_callback,
  };
  TF_SetStatus(status, TF_OK, "");
}

static void plugin_destroy_stream_executor(const SP_Platform* platform,
                                           SP_StreamExecutor* stream_executor) {
  (void)platform;
  (void)stream_executor;
}

static void plugin_destroy_timer_fns(const SP_Platform* platform, SP_TimerFns* timer_fns) {
  (void)platform;
  (void)timer_fns;
}

static void plugin_destroy_platform(SP_Platform* platform) { (void)platform; }

static void plugin_destroy_platform_fns(SP_PlatformFns* platform_fns) { (void)platform_fns; }

PLUGIN_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (params->major_version != SE_MAJOR) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "unsupported StreamExecutor C API version");
    return;
  }
  *params->platform = (SP_Platform){
      .struct_size = SP_PLATFORM_STRUCT_SIZE,
      .name = PLATFORM_NAME,
      .type = DEVICE_TYPE,
      .supports_unified_memory = 0,
      .use_bfc_allocator = 1,
      .force_memory_growth = 0,
  };
  *params->platform_fns = (SP_PlatformFns){
      .struct_size = SP_PLATFORM_FNS_STRUCT_SIZE,
      .get_device_count = plugin_get_device_count,
      .create_device = plugin_create_device,
      .destroy_device = plugin_destroy_device,
      .create_device_fns = plugin_create_device_fns,
      .destroy_device_fns = plugin_destroy_device_fns,
      .create_stream_executor = plugin_create_stream_executor,
      .destroy_stream_executor = plugin_destroy_stream_executor,
      .destroy_timer_fns = plugin_destroy_timer_fns,
  };
  params->destroy_platform = plugin_destroy_platform;
  params->destroy_platform_fns = plugin_destroy_platform_fns;
  TF_SetStatus(status, TF_OK, "");
}

/* ---- Kernels ----------------------------------------------------------------- */

typedef struct {
  float alpha;
} LeakyReluKernel;

static void* leaky_relu_create(TF_OpKernelConstruction* ctx) {
  LeakyReluKernel* kernel = (LeakyReluKernel*)calloc(1, sizeof(LeakyReluKernel));
  TF_Status* status = TF_NewStatus();
  TF_StringView name = TF_OpKernelConstruction_GetName(ctx);
  (void)name.len;
  if (TF_OpKernelConstruction_HasAttr(ctx, "alpha", status)) {
    TF_OpKernelConstruction_GetAttrFloat(ctx, "alpha", &kernel->alpha, status);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelConstruction_Failure(ctx, status);
  TF_DeleteStatus(status);
  return kernel;
}

static void leaky_relu_compute(void* kernel, TF_OpKernelContext* ctx) {
  const LeakyReluKernel* self = (const LeakyReluKernel*)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* input = NULL;
  TF_GetInput(ctx, 0, &input, status);
  if (TF_GetCode(status) == TF_OK) {
    int64_t dims[8];
    const int rank = TF_NumDims(input);
    for (int d = 0; d < rank && d < 8; ++d) dims[d] = TF_Dim(input, d);
    TF_Tensor* output = TF_AllocateOutput(ctx, 0, TF_ExpectedOutputDataType(ctx, 0), dims, rank,
                                          TF_TensorByteSize(input), status);
    TF_AllocatorAttributes attrs = {.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE,
                                    .on_host = 1};
    TF_Tensor* scratch = TF_AllocateTemp(ctx, TF_FLOAT, dims, rank, &attrs, status);
    TF_DeleteTensor(scratch);
    SP_Stream stream = TF_GetStream(ctx, status);
    if (TF_GetCode(status) == TF_OK && stream != NULL) {
      const float* in = (const float*)TF_TensorData(input);
      float* out = (float*)TF_TensorData(output);
      for (int64_t i = 0; i < TF_TensorElementCount(input); ++i) {
        out[i] = in[i] > 0.0f ? in[i] : self->alpha * in[i];
      }
    }
    TF_DeleteTensor(output);
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(input);
  TF_DeleteStatus(status);
}

static void leaky_relu_delete(void* kernel) { free(kernel); }

static void copy_tensor(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest) {
  (void)ctx;
  memcpy(TF_TensorData(dest), TF_TensorData(source), TF_TensorByteSize(source));
  TF_DeleteTensor(source);
  TF_DeleteTensor(dest);
}

static void assign_variable_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_InputRange_Args args;
  (void)kernel;
  args.struct_size = TF_InputRange_Args_STRUCT_SIZE;
  args.priv = NULL;
  args.status = status;
  TF_InputRange(ctx, "value", &args);
  TF_AssignVariable(ctx, 0, args.start, /*validate_shape=*/true, copy_tensor, status);
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteStatus(status);
}

static void async_compute(void* kernel, TF_OpKernelContext* ctx,
                          TF_AsyncOpKernelDoneCallback* done) {
  (void)kernel;
  (void)ctx;
  TF_RunAsyncOpKernelDoneCallback(done);
}

static void leaky_relu_shape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* shape = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, shape, status);
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, shape, status);
  TF_DeleteShapeHandle(shape);
}

static void register_ops(TF_Status* status) {
  TF_OpDefinitionBuilder* op = TF_NewOpDefinitionBuilder("MyLeakyRelu");
  TF_OpDefinitionBuilderAddInput(op, "features: T");
  TF_OpDefinitionBuilderAddOutput(op, "activations: T");
  TF_OpDefinitionBuilderAddAttr(op, "T: {float, half}");
  TF_OpDefinitionBuilderAddAttr(op, "alpha: float = 0.2");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(op, leaky_relu_shape);
  TF_RegisterOpDefinition(op, status);
}

PLUGIN_EXPORT void TF_InitKernel(void) {
  TF_Status* status = TF_NewStatus();
  register_ops(status);

  TF_KernelBuilder* builder = TF_NewKernelBuilder("MyLeakyRelu", DEVICE_TYPE, leaky_relu_create,
                                                  leaky_relu_compute, leaky_relu_delete);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_RegisterKernelBuilder("MyLeakyReluOp", builder, status);
  } else {
    TF_DeleteKernelBuilder(builder);
  }

  builder =
      TF_NewKernelBuilder("AssignVariableOp", DEVICE_TYPE, NULL, assign_variable_compute, NULL);
  TF_KernelBuilder_HostMemory(builder, "resource");
  TF_RegisterKernelBuilder("AssignVariableOp", builder, status);

  builder = TF_NewAsyncKernelBuilder("MyAsyncOp", DEVICE_TYPE, NULL, async_compute, NULL);
  TF_KernelBuilder_Priority(builder, 1);
  TF_RegisterKernelBuilderWithKernelDef(NULL, "MyAsyncOp", builder, status);
  TF_DeleteStatus(status);
}

/* ---- Graph optimizer --------------------------------------------------------- */

static void optimize(void* optimizer, const TF_Buffer* graph_in, const TF_GrapplerItem* item,
                     TF_Buffer* graph_out, TF_Status* status) {
  int num_nodes = 0;
  size_t storage_size = 0;
  (void)optimizer;
  TF_GetFetchNodesListSize(item, &num_nodes, &storage_size, status);
  *graph_out = TF_GetBuffer((TF_Buffer*)graph_in);
  graph_out->data_deallocator = NULL;
}

PLUGIN_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->device_type = DEVICE_TYPE;
  *params->optimizer_configs = (TP_OptimizerConfigs){
      .struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE,
      .remapping = TF_TriState_Off,
      .auto_mixed_precision_onednn_bfloat16 = TF_TriState_Default,
  };
  *params->optimizer = (TP_Optimizer){
      .struct_size = TP_OPTIMIZER_STRUCT_SIZE,
      .optimize_func = optimize,
  };
  params->struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
  TF_SetStatus(status, TF_OK, "");
}

/* ---- Profiler ------------------------------------------------------------------ */

static void profiler_start(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
  TF_SetStatus(status, TF_OK, "");
}

static void profiler_stop(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
  TF_SetStatus(status, TF_OK, "");
}

static void profiler_collect(const TP_Profiler* profiler, uint8_t* buffer, size_t* size_in_bytes,
                             TF_Status* status) {
  (void)profiler;
  (void)buffer;
  *size_in_bytes = 0;
  TF_SetStatus(status, TF_OK, "");
}

static void profiler_destroy(TP_Profiler* profiler) { (void)profiler; }

static void profiler_destroy_fns(TP_ProfilerFns* profiler_fns) { (void)profiler_fns; }

PLUGIN_EXPORT void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status) {
  params->struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
  params->profiler->device_type = DEVICE_TYPE;
  *params->profiler_fns = (TP_ProfilerFns){
      .struct_size = TP_PROFILER_FNS_STRUCT_SIZE,
      .start = profiler_start,
      .stop = profiler_stop,
      .collect_data_xspace = profiler_collect,
  };
  params->destroy_profiler = profiler_destroy;
  params->destroy_profiler_fns = profiler_destroy_fns;
  TF_SetStatus(status, TF_OK, "");
}
