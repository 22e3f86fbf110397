/* Clean-room TensorFlow PluggableDevice StreamExecutor C API (SE_/SP_).
 *
 * Reproduces the newest known layout of TensorFlow's
 * tensorflow/c/experimental/stream_executor/stream_executor.h (TF 2.10 and
 * later): SP_Platform ends at force_memory_growth (struct size 35) and
 * SP_StreamExecutor has mem_zero/memset/memset32 before host_callback (288).
 *
 * Who fills what: SE_* structs are filled by the core, SP_* structs by the
 * plugin. `struct_size` is written by both: the core pre-sets it before handing
 * a struct over and the plugin is expected to set it again. `ext` is reserved.
 * The core owns the memory of every struct passed to a callback.
 */
#ifndef TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_
#define TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

/* API version the core reports in SE_PlatformRegistrationParams. It has stayed
 * 0.0.1 through every layout change. */
#define SE_MAJOR 0
#define SE_MINOR 0
#define SE_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

/* Handles defined by the plugin; the core only passes the pointers around. */
typedef struct SP_Stream_st* SP_Stream;
typedef struct SP_Event_st* SP_Event;
typedef struct SP_Timer_st* SP_Timer;

/* Callback given to host_callback; receives the callback_arg passed there. */
typedef void (*SE_StatusCallbackFn)(void* const, TF_Status* const);

typedef struct SP_TimerFns {
  size_t struct_size;
  void* ext;
  uint64_t (*nanoseconds)(SP_Timer timer);
} SP_TimerFns;

#define SP_TIMER_FNS_STRUCT_SIZE TF_OFFSET_OF_END(SP_TimerFns, nanoseconds)

/* Allocator statistics reported by get_allocator_stats. No `ext` member. The
 * *_limit values only count when the matching has_* byte is non-zero. */
typedef struct SP_AllocatorStats {
  size_t struct_size;
  int64_t num_allocs;
  int64_t bytes_in_use;
  int64_t peak_bytes_in_use;
  int64_t largest_alloc_size;
  int8_t has_bytes_limit;
  int64_t bytes_limit;
  int64_t bytes_reserved;
  int64_t peak_bytes_reserved;
  int8_t has_bytes_reservable_limit;
  int64_t bytes_reservable_limit;
  int64_t largest_free_block_bytes;
} SP_AllocatorStats;

#define SP_ALLOCATORSTATS_STRUCT_SIZE TF_OFFSET_OF_END(SP_AllocatorStats, largest_free_block_bytes)

/* State of an SP_Event as reported by get_event_status. */
typedef enum SE_EventStatus {
  SE_EVENT_UNKNOWN = 0,
  SE_EVENT_ERROR = 1,
  SE_EVENT_PENDING = 2,
  SE_EVENT_COMPLETE = 3
} SE_EventStatus;

/* One device allocation. `opaque` is the plugin's handle or address (it need
 * not be a host-visible pointer), `size` is in bytes, `payload` is free for the
 * plugin. */
typedef struct SP_DeviceMemoryBase {
  size_t struct_size;
  void* ext;
  void* opaque;
  uint64_t size;
  uint64_t payload;
} SP_DeviceMemoryBase;

#define SP_DEVICE_MEMORY_BASE_STRUCT_SIZE TF_OFFSET_OF_END(SP_DeviceMemoryBase, payload)

/* A device, filled by the plugin in create_device. The three strings are
 * optional, NUL-terminated and used for display only. */
typedef struct SP_Device {
  size_t struct_size;
  void* ext;
  int32_t ordinal;     /* copy of SE_CreateDeviceParams.ordinal */
  void* device_handle; /* plugin's own device object */
  const char* hardware_name;
  const char* device_vendor;
  const char* pci_bus_id; /* "dddd:bb:dd.f" */
} SP_Device;

#define SP_DEVICE_STRUCT_SIZE TF_OFFSET_OF_END(SP_Device, pci_bus_id)

typedef struct SE_CreateDeviceParams {
  size_t struct_size;
  void* ext;
  int32_t ordinal;   /* index of the device to create */
  SP_Device* device; /* core-owned storage the plugin fills */
} SE_CreateDeviceParams;

#define SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE TF_OFFSET_OF_END(SE_CreateDeviceParams, device)

/* Optional device queries; a negative result means "not known". */
typedef struct SP_DeviceFns {
  size_t struct_size;
  void* ext;
  int32_t (*get_numa_node)(const SP_Device* device);
  int64_t (*get_memory_bandwidth)(const SP_Device* device); /* bytes/s */
  double (*get_gflops)(const SP_Device* device);
} SP_DeviceFns;

#define SP_DEVICE_FNS_STRUCT_SIZE TF_OFFSET_OF_END(SP_DeviceFns, get_gflops)

typedef struct SE_CreateDeviceFnsParams {
  size_t struct_size;
  void* ext;
  SP_DeviceFns* device_fns; /* core-owned storage the plugin fills */
} SE_CreateDeviceFnsParams;

#define SE_CREATE_DEVICE_FNS_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_CreateDeviceFnsParams, device_fns)

/* Per-device operations, filled by the plugin in create_stream_executor. Every
 * callback receives the device it was created for. Errors are reported through
 * the TF_Status argument where there is one. */
typedef struct SP_StreamExecutor {
  size_t struct_size;
  void* ext;

  /* Device and host memory. On allocation failure set mem->opaque to NULL.
   * memory_space is reserved (0). unified_memory_* are only needed when
   * SP_Platform.supports_unified_memory is set. */
  void (*allocate)(const SP_Device* device, uint64_t size, int64_t memory_space,
                   SP_DeviceMemoryBase* mem);
  void (*deallocate)(const SP_Device* device, SP_DeviceMemoryBase* memory);
  void* (*host_memory_allocate)(const SP_Device* device, uint64_t size);
  void (*host_memory_deallocate)(const SP_Device* device, void* mem);
  void* (*unified_memory_allocate)(const SP_Device* device, uint64_t bytes);
  void (*unified_memory_deallocate)(const SP_Device* device, void* location);
  /* Return false when the information is unavailable. */
  TF_Bool (*get_allocator_stats)(const SP_Device* device, SP_AllocatorStats* stats);
  TF_Bool (*device_memory_usage)(const SP_Device* device, int64_t* free, int64_t* total);

  /* Streams. */
  void (*create_stream)(const SP_Device* device, SP_Stream* stream, TF_Status* status);
  void (*destroy_stream)(const SP_Device* device, SP_Stream stream);
  /* Work queued on `dependent` later waits for what is queued on `other` now. */
  void (*create_stream_dependency)(const SP_Device* device, SP_Stream dependent, SP_Stream other,
                                   TF_Status* status);
  void (*get_stream_status)(const SP_Device* device, SP_Stream stream, TF_Status* status);

  /* Events. */
  void (*create_event)(const SP_Device* device, SP_Event* event, TF_Status* status);
  void (*destroy_event)(const SP_Device* device, SP_Event event);
  SE_EventStatus (*get_event_status)(const SP_Device* device, SP_Event event);
  void (*record_event)(const SP_Device* device, SP_Stream stream, SP_Event event,
                       TF_Status* status);
  void (*wait_for_event)(const SP_Device* const device, SP_Stream stream, SP_Event event,
                         TF_Status* const status);

  /* Timers (the newest cores no longer use them, but the slots remain). */
  void (*create_timer)(const SP_Device* device, SP_Timer* timer, TF_Status* status);
  void (*destroy_timer)(const SP_Device* device, SP_Timer timer);
  void (*start_timer)(const SP_Device* device, SP_Stream stream, SP_Timer timer, TF_Status* status);
  void (*stop_timer)(const SP_Device* device, SP_Stream stream, SP_Timer timer, TF_Status* status);

  /* Copies queued on a stream. */
  void (*memcpy_dtoh)(const SP_Device* device, SP_Stream stream, void* host_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status);
  void (*memcpy_htod)(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                      const void* host_src, uint64_t size, TF_Status* status);
  void (*memcpy_dtod)(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* device_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status);

  /* Copies that return only once the data has arrived. */
  void (*sync_memcpy_dtoh)(const SP_Device* device, void* host_dst,
                           const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status);
  void (*sync_memcpy_htod)(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                           const void* host_src, uint64_t size, TF_Status* status);
  void (*sync_memcpy_dtod)(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                           const SP_DeviceMemoryBase* device_src, uint64_t size, TF_Status* status);

  /* Host-side waits. block_host_until_done is optional. */
  void (*block_host_for_event)(const SP_Device* device, SP_Event event, TF_Status* status);
  void (*block_host_until_done)(const SP_Device* device, SP_Stream stream, TF_Status* status);
  void (*synchronize_all_activity)(const SP_Device* device, TF_Status* status);

  /* Fills queued on a stream (inserted before host_callback in TF 2.10). */
  void (*mem_zero)(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
                   uint64_t size, TF_Status* status);
  void (*memset)(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
                 uint8_t pattern, uint64_t size, TF_Status* status);
  void (*memset32)(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
                   uint32_t pattern, uint64_t size, TF_Status* status);

  /* Runs callback_fn(callback_arg, status) on the host once all work queued on
   * the stream so far is done; returns false if it could not be queued. */
  TF_Bool (*host_callback)(const SP_Device* device, SP_Stream stream,
                           SE_StatusCallbackFn callback_fn, void* callback_arg);
} SP_StreamExecutor;

#define SP_STREAMEXECUTOR_STRUCT_SIZE TF_OFFSET_OF_END(SP_StreamExecutor, host_callback)

typedef struct SE_CreateStreamExecutorParams {
  size_t struct_size;
  void* ext;
  SP_StreamExecutor* stream_executor; /* core-owned storage the plugin fills */
} SE_CreateStreamExecutorParams;

#define SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_CreateStreamExecutorParams, stream_executor)

/* The platform. name and type must match [A-Z][A-Z_]* and stay alive after
 * SE_InitPlugin returns. */
typedef struct SP_Platform {
  size_t struct_size;
  void* ext;
  const char* name;                /* platform name */
  const char* type;                /* device type, e.g. "GPU" or "MY_DEVICE" */
  TF_Bool supports_unified_memory; /* makes unified_memory_* required */
  TF_Bool use_bfc_allocator;       /* wrap allocate/deallocate in a BFC pool */
  TF_Bool force_memory_growth;     /* BFC grows on demand (TF 2.10+) */
} SP_Platform;

#define SP_PLATFORM_STRUCT_SIZE TF_OFFSET_OF_END(SP_Platform, force_memory_growth)

/* Platform-level operations. The destroy_* callbacks release what the plugin
 * put inside a struct, never the struct itself (core memory). */
typedef struct SP_PlatformFns {
  size_t struct_size;
  void* ext;
  void (*get_device_count)(const SP_Platform* platform, int* device_count, TF_Status* status);
  void (*create_device)(const SP_Platform* platform, SE_CreateDeviceParams* params,
                        TF_Status* status);
  void (*destroy_device)(const SP_Platform* platform, SP_Device* device);
  void (*create_device_fns)(const SP_Platform* platform, SE_CreateDeviceFnsParams* params,
                            TF_Status* status);
  void (*destroy_device_fns)(const SP_Platform* platform, SP_DeviceFns* device_fns);
  void (*create_stream_executor)(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                                 TF_Status* status);
  void (*destroy_stream_executor)(const SP_Platform* platform, SP_StreamExecutor* stream_executor);
  void (*create_timer_fns)(const SP_Platform* platform, SP_TimerFns* timer, TF_Status* status);
  void (*destroy_timer_fns)(const SP_Platform* platform, SP_TimerFns* timer_fns);
} SP_PlatformFns;

#define SP_PLATFORM_FNS_STRUCT_SIZE TF_OFFSET_OF_END(SP_PlatformFns, destroy_timer_fns)

/* Handed to SE_InitPlugin. The core sets the version fields and provides the
 * storage behind `platform` and `platform_fns`; the plugin fills those and the
 * two destroy callbacks. */
typedef struct SE_PlatformRegistrationParams {
  size_t struct_size;
  void* ext;
  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;
  SP_Platform* platform;
  SP_PlatformFns* platform_fns;
  void (*destroy_platform)(SP_Platform* platform);
  void (*destroy_platform_fns)(SP_PlatformFns* platform_fns);
} SE_PlatformRegistrationParams;

#define SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_PlatformRegistrationParams, destroy_platform_fns)

/* Defined by the plugin (no TF_CAPI_EXPORT: a plugin built with hidden
 * visibility must export it itself). Looked up with dlsym by the core. */
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_ */
