/* The minimal plugin of tests/load_defects, and the family of deliberately defective plugins
 * built from it.
 *
 * Built without any DEFECT_* macro this is a correct, minimal and complete PluggableDevice
 * plugin: platform "MINIMAL", device type "MINIMAL_DEVICE", two devices backed by host memory,
 * synchronous streams, every SP_PlatformFns / SP_StreamExecutor callback set (timers included),
 * two kernels, a graph optimizer that copies its input and a profiler that records nothing.
 * The load tier must pass it with no finding at all.
 *
 * Each variant in CMakeLists.txt defines exactly one defect, and expectations.yaml says which
 * check must catch it. Defects the mock plugin can be configured to have (failing callbacks,
 * NULL callbacks, wrong names, struct_size values, an unwritten device count) live in
 * tests/mocks/mock_faults.yaml instead.
 * The defects are applied where they happen, through these switches:
 *
 *   DEFECT_NULL_<STRUCT>_FIELD=<member>
 *       leave one string or non-callback member of one struct NULL (after filling the rest).
 *   DEFECT_<NAME>
 *       everything else (wrong names, stack strings, kernel mistakes, crashes, hangs, and the
 *       build-level defects of CMakeLists.txt that need a hook in the source).
 *   OPENS_LIBRARY="<path>"
 *       SE_InitPlugin opens that library first (dlopen's error is its status); whether that is
 *       a defect depends on the library's imports (opened_helper.c). With OPENS_LIBRARY_OPTIONAL
 *       the plugin carries on without it when dlopen fails, as one whose library only adds
 *       something optional (a profiler backend, a faster path) does.
 */
#if defined(OPENS_LIBRARY)
#include <dlfcn.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

/* ---- Defect switches ------------------------------------------------------------------- */

/* Names. The co-load variants share one of them with the correct plugin. */
#if defined(DEFECT_SAME_DEVICE_TYPE)
#define PLATFORM_NAME "MINIMAL_TWIN"
#else
#define PLATFORM_NAME "MINIMAL"
#endif
#if defined(DEFECT_SAME_PLATFORM_NAME)
#define DEVICE_TYPE "MINIMAL_TWIN_DEVICE"
#else
#define DEVICE_TYPE "MINIMAL_DEVICE"
#endif

enum { kDeviceCount = 2 };

/* Entry points carry no export macro in TensorFlow's headers; a plugin built with
 * -fvisibility=hidden has to export them itself, which DEFECT_HIDDEN_ENTRY_POINTS forgets. */
#if defined(DEFECT_HIDDEN_ENTRY_POINTS)
#define ENTRY_POINT
#else
#define ENTRY_POINT __attribute__((visibility("default")))
#endif

#if defined(DEFECT_SE_INIT_SEGFAULT) || defined(DEFECT_KERNEL_INIT_SEGFAULT)
static void crash_here(void) {
  int* volatile nowhere = NULL;
  *nowhere = 42;
}
#endif

#if defined(DEFECT_UNDEFINED_TF_IMPORT)
/* Looks like core API, but no TensorFlow exports it: dlopen(RTLD_NOW) fails. */
void TF_NotARealFunction(void);
#endif
#if defined(DEFECT_TENSORFLOW_CXX_IMPORT)
/* tensorflow_cxx_import.cc: calls a TensorFlow C++ function. */
int load_defect_call_tensorflow_cxx(void);
#endif
#if defined(DEFECT_UNDEFINED_SYMBOL)
/* Not TensorFlow's, and nobody defines it: dlopen(RTLD_NOW) fails. */
void load_defect_missing_helper(void);
#endif
#if defined(DEFECT_MISSING_NEEDED)
/* Defined in libload_defect_unshipped.so, which the plugin needs but nobody ships. */
int load_defect_unshipped_answer(void);
#endif

/* A buffer 64 KiB down the stack: a name written there is still intact when the core reads
 * it right after the call returned (the core's own frames do not reach that deep), but it
 * dangles all the same. */
enum { kDeepStackBytes = 64 * 1024 };

/* ---- Plugin-side objects ----------------------------------------------------------------- */

struct minimal_device {
  int32_t ordinal;
  char hardware_name[48];
  char pci_bus_id[16];
};

/* Streams are synchronous: every operation is complete when its callback returns. */
struct SP_Stream_st {
  int unused;
};
struct SP_Event_st {
  SE_EventStatus status;
};
struct SP_Timer_st {
  uint64_t start_ns;
  uint64_t stop_ns;
};

static const char kVendor[] = "plugin_conformance";

static uint64_t now_ns(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC); /* C11; a minimal plugin can live with wall-clock time */
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Device memory is host memory, 64-byte aligned like TensorFlow's allocators. */
static void* aligned_block(uint64_t size) {
  const uint64_t rounded = (size + 63u) / 64u * 64u;
  return aligned_alloc(64, rounded ? rounded : 64u);
}

/* A device block keeps its size in a 64-byte header before it: TensorFlow's deallocate passes
 * the address alone (SP_DeviceMemoryBase.size 0, measured on 2.21). */
enum { kBlockHeader = 64 };

static void* sized_block(uint64_t size) {
  unsigned char* base = aligned_block(size + kBlockHeader);
  if (base == NULL) return NULL;
  memcpy(base, &size, sizeof size);
  return base + kBlockHeader;
}

static uint64_t block_size(void* block) {
  uint64_t size;
  memcpy(&size, (unsigned char*)block - kBlockHeader, sizeof size);
  return size;
}

static void free_sized_block(void* block) {
  if (block) free((unsigned char*)block - kBlockHeader);
}

/* Allocator statistics, shared by both devices (enough for a minimal plugin). */
static int64_t g_num_allocs;
static int64_t g_bytes_in_use;
static int64_t g_peak_bytes_in_use;
static int64_t g_largest_alloc;
static const int64_t kMemoryBytes = (int64_t)1 << 30;

/* ---- SP_StreamExecutor callbacks ------------------------------------------------------- */

static void minimal_allocate(const SP_Device* device, uint64_t size, int64_t memory_space,
                             SP_DeviceMemoryBase* mem) {
  (void)device;
  (void)memory_space;
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  /* Honour the capacity device_memory_usage reports: malloc would overcommit past it. */
  mem->opaque = size <= (uint64_t)(kMemoryBytes - g_bytes_in_use) ? sized_block(size) : NULL;
  mem->size = mem->opaque ? size : 0;
  mem->payload = 0;
  if (mem->opaque) {
    g_num_allocs += 1;
    g_bytes_in_use += (int64_t)size;
    if (g_bytes_in_use > g_peak_bytes_in_use) g_peak_bytes_in_use = g_bytes_in_use;
    if ((int64_t)size > g_largest_alloc) g_largest_alloc = (int64_t)size;
  }
}

static void minimal_deallocate(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  (void)device;
  if (memory->opaque) g_bytes_in_use -= (int64_t)block_size(memory->opaque);
  free_sized_block(memory->opaque);
  memory->opaque = NULL;
  memory->size = 0;
}

static void* minimal_host_memory_allocate(const SP_Device* device, uint64_t size) {
  (void)device;
  return aligned_block(size);
}

static void minimal_host_memory_deallocate(const SP_Device* device, void* mem) {
  (void)device;
  free(mem);
}

static void* minimal_unified_memory_allocate(const SP_Device* device, uint64_t bytes) {
  (void)device;
  return aligned_block(bytes);
}

static void minimal_unified_memory_deallocate(const SP_Device* device, void* location) {
  (void)device;
  free(location);
}

static TF_Bool minimal_get_allocator_stats(const SP_Device* device, SP_AllocatorStats* stats) {
  (void)device;
  stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  stats->num_allocs = g_num_allocs;
  stats->bytes_in_use = g_bytes_in_use;
  stats->peak_bytes_in_use = g_peak_bytes_in_use;
  stats->largest_alloc_size = g_largest_alloc;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = kMemoryBytes;
  return 1;
}

static TF_Bool minimal_device_memory_usage(const SP_Device* device, int64_t* free_bytes,
                                           int64_t* total_bytes) {
  (void)device;
#if defined(DEFECT_MEMORY_USAGE_FAILS)
  /* Cannot say how much memory the device has: TensorFlow refuses the device. */
  (void)free_bytes;
  (void)total_bytes;
  return 0;
#endif
  *total_bytes = kMemoryBytes;
  *free_bytes = kMemoryBytes - g_bytes_in_use;
  return 1;
}

static void minimal_create_stream(const SP_Device* device, SP_Stream* stream, TF_Status* status) {
  (void)device;
  *stream = calloc(1, sizeof(struct SP_Stream_st));
  if (*stream == NULL) TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
}

static void minimal_destroy_stream(const SP_Device* device, SP_Stream stream) {
  (void)device;
  free(stream);
}

static void minimal_create_stream_dependency(const SP_Device* device, SP_Stream dependent,
                                             SP_Stream other, TF_Status* status) {
  /* Synchronous streams: whatever `other` had queued is already done. */
  (void)device;
  (void)dependent;
  (void)other;
  (void)status;
}

static void minimal_get_stream_status(const SP_Device* device, SP_Stream stream,
                                      TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
}

static void minimal_create_event(const SP_Device* device, SP_Event* event, TF_Status* status) {
  (void)device;
  *event = calloc(1, sizeof(struct SP_Event_st));
  if (*event == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  (*event)->status = SE_EVENT_PENDING;
}

static void minimal_destroy_event(const SP_Device* device, SP_Event event) {
  (void)device;
  free(event);
}

static SE_EventStatus minimal_get_event_status(const SP_Device* device, SP_Event event) {
  (void)device;
  return event->status;
}

static void minimal_record_event(const SP_Device* device, SP_Stream stream, SP_Event event,
                                 TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  event->status = SE_EVENT_COMPLETE;
}

static void minimal_wait_for_event(const SP_Device* const device, SP_Stream stream, SP_Event event,
                                   TF_Status* const status) {
  (void)device;
  (void)stream;
  (void)event;
  (void)status;
}

static void minimal_create_timer(const SP_Device* device, SP_Timer* timer, TF_Status* status) {
  (void)device;
  *timer = calloc(1, sizeof(struct SP_Timer_st));
  if (*timer == NULL) TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
}

static void minimal_destroy_timer(const SP_Device* device, SP_Timer timer) {
  (void)device;
  free(timer);
}

static void minimal_start_timer(const SP_Device* device, SP_Stream stream, SP_Timer timer,
                                TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  timer->start_ns = now_ns();
}

static void minimal_stop_timer(const SP_Device* device, SP_Stream stream, SP_Timer timer,
                               TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  timer->stop_ns = now_ns();
}

static void minimal_memcpy_dtoh(const SP_Device* device, SP_Stream stream, void* host_dst,
                                const SP_DeviceMemoryBase* device_src, uint64_t size,
                                TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  if (size) memcpy(host_dst, device_src->opaque, size);
}

static void minimal_memcpy_htod(const SP_Device* device, SP_Stream stream,
                                SP_DeviceMemoryBase* device_dst, const void* host_src,
                                uint64_t size, TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  if (size) memcpy(device_dst->opaque, host_src, size);
}

static void minimal_memcpy_dtod(const SP_Device* device, SP_Stream stream,
                                SP_DeviceMemoryBase* device_dst,
                                const SP_DeviceMemoryBase* device_src, uint64_t size,
                                TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  if (size) memmove(device_dst->opaque, device_src->opaque, size);
}

static void minimal_sync_memcpy_dtoh(const SP_Device* device, void* host_dst,
                                     const SP_DeviceMemoryBase* device_src, uint64_t size,
                                     TF_Status* status) {
  minimal_memcpy_dtoh(device, NULL, host_dst, device_src, size, status);
}

static void minimal_sync_memcpy_htod(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                                     const void* host_src, uint64_t size, TF_Status* status) {
  minimal_memcpy_htod(device, NULL, device_dst, host_src, size, status);
}

static void minimal_sync_memcpy_dtod(const SP_Device* device, SP_DeviceMemoryBase* device_dst,
                                     const SP_DeviceMemoryBase* device_src, uint64_t size,
                                     TF_Status* status) {
  minimal_memcpy_dtod(device, NULL, device_dst, device_src, size, status);
}

static void minimal_block_host_for_event(const SP_Device* device, SP_Event event,
                                         TF_Status* status) {
  (void)device;
  (void)event;
  (void)status;
}

static void minimal_block_host_until_done(const SP_Device* device, SP_Stream stream,
                                          TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
}

static void minimal_synchronize_all_activity(const SP_Device* device, TF_Status* status) {
  (void)device;
  (void)status;
}

static void minimal_mem_zero(const SP_Device* device, SP_Stream stream,
                             SP_DeviceMemoryBase* location, uint64_t size, TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  if (size) memset(location->opaque, 0, size);
}

static void minimal_memset(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* location,
                           uint8_t pattern, uint64_t size, TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  if (size) memset(location->opaque, pattern, size);
}

static void minimal_memset32(const SP_Device* device, SP_Stream stream,
                             SP_DeviceMemoryBase* location, uint32_t pattern, uint64_t size,
                             TF_Status* status) {
  (void)device;
  (void)stream;
  (void)status;
  uint32_t* words = location->opaque;
  for (uint64_t i = 0; i < size / 4; ++i) words[i] = pattern;
}

static TF_Bool minimal_host_callback(const SP_Device* device, SP_Stream stream,
                                     SE_StatusCallbackFn callback_fn, void* callback_arg) {
  (void)device;
  (void)stream;
  TF_Status* status = TF_NewStatus();
  if (status == NULL) return 0;
  callback_fn(callback_arg, status); /* exactly once; the stream is already idle */
  TF_DeleteStatus(status);
  return 1;
}

/* ---- SP_DeviceFns / SP_TimerFns callbacks ---------------------------------------------- */

static int32_t minimal_get_numa_node(const SP_Device* device) {
  (void)device;
  return -1; /* unknown */
}

static int64_t minimal_get_memory_bandwidth(const SP_Device* device) {
  (void)device;
  return -1;
}

static double minimal_get_gflops(const SP_Device* device) {
  (void)device;
  return -1.0;
}

static uint64_t minimal_nanoseconds(SP_Timer timer) { return timer->stop_ns - timer->start_ns; }

/* ---- SP_PlatformFns callbacks ----------------------------------------------------------- */

static void minimal_get_device_count(const SP_Platform* platform, int* device_count,
                                     TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
  (void)platform;
#if defined(DEFECT_DEVICE_COUNT_ZERO)
  *device_count = 0; /* yet create_device still serves ordinals 0 and 1 */
#else
  *device_count = kDeviceCount;
#endif
}

static void minimal_create_device(const SP_Platform* platform, SE_CreateDeviceParams* params,
                                  TF_Status* status) {
  (void)platform;
#if defined(DEFECT_DEVICE_1_NOT_CREATABLE)
  if (params->ordinal == 1) {
    TF_SetStatus(status, TF_INTERNAL, "minimal plugin: device 1 cannot be created");
    return;
  }
#endif
  if (params->ordinal < 0 || params->ordinal >= kDeviceCount) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "minimal plugin: no such device ordinal");
    return;
  }
  struct minimal_device* state = calloc(1, sizeof *state);
  if (state == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  state->ordinal = params->ordinal;
  snprintf(state->hardware_name, sizeof state->hardware_name, "MINIMAL simulated device %d",
           (int)params->ordinal);
  snprintf(state->pci_bus_id, sizeof state->pci_bus_id, "0000:00:%02x.0",
           (unsigned)params->ordinal & 0x1fu);

  SP_Device* device = params->device;
  device->struct_size = SP_DEVICE_STRUCT_SIZE;
#if defined(DEFECT_DEVICE_ORDINAL_WRONG)
  device->ordinal = 0; /* every device claims to be device 0 */
#elif !defined(DEFECT_DEVICE_ORDINAL_NOT_COPIED)
  device->ordinal = params->ordinal;
#endif
#if defined(DEFECT_DEVICE_HANDLE_NULL)
  device->device_handle = NULL; /* the state leaks: destroy_device cannot find it */
#else
  device->device_handle = state;
#endif
  device->device_vendor = kVendor;
#if defined(DEFECT_DEVICE_STRINGS_ON_STACK)
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
  char deep_stack[kDeepStackBytes];
  strcpy(deep_stack, state->hardware_name);
  strcpy(deep_stack + sizeof state->hardware_name, state->pci_bus_id);
  device->hardware_name = deep_stack;
  device->pci_bus_id = deep_stack + sizeof state->hardware_name;
#else
  device->hardware_name = state->hardware_name;
  device->pci_bus_id = state->pci_bus_id;
#endif
}

static void minimal_destroy_device(const SP_Platform* platform, SP_Device* device) {
  (void)platform;
  free(device->device_handle);
  device->device_handle = NULL;
  device->hardware_name = NULL;
  device->pci_bus_id = NULL;
}

static void minimal_create_device_fns(const SP_Platform* platform, SE_CreateDeviceFnsParams* params,
                                      TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
  (void)platform;
  SP_DeviceFns* fns = params->device_fns;
  fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  fns->get_numa_node = minimal_get_numa_node;
  fns->get_memory_bandwidth = minimal_get_memory_bandwidth;
  fns->get_gflops = minimal_get_gflops;
}

static void minimal_destroy_device_fns(const SP_Platform* platform, SP_DeviceFns* device_fns) {
  (void)platform;
  (void)device_fns;
}

static void minimal_create_stream_executor(const SP_Platform* platform,
                                           SE_CreateStreamExecutorParams* params,
                                           TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
  (void)platform;
  SP_StreamExecutor* se = params->stream_executor;
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->allocate = minimal_allocate;
  se->deallocate = minimal_deallocate;
  se->host_memory_allocate = minimal_host_memory_allocate;
  se->host_memory_deallocate = minimal_host_memory_deallocate;
  se->unified_memory_allocate = minimal_unified_memory_allocate;
  se->unified_memory_deallocate = minimal_unified_memory_deallocate;
  se->get_allocator_stats = minimal_get_allocator_stats;
  se->device_memory_usage = minimal_device_memory_usage;
  se->create_stream = minimal_create_stream;
  se->destroy_stream = minimal_destroy_stream;
  se->create_stream_dependency = minimal_create_stream_dependency;
  se->get_stream_status = minimal_get_stream_status;
  se->create_event = minimal_create_event;
  se->destroy_event = minimal_destroy_event;
  se->get_event_status = minimal_get_event_status;
  se->record_event = minimal_record_event;
  se->wait_for_event = minimal_wait_for_event;
  se->create_timer = minimal_create_timer;
  se->destroy_timer = minimal_destroy_timer;
  se->start_timer = minimal_start_timer;
  se->stop_timer = minimal_stop_timer;
  se->memcpy_dtoh = minimal_memcpy_dtoh;
  se->memcpy_htod = minimal_memcpy_htod;
  se->memcpy_dtod = minimal_memcpy_dtod;
  se->sync_memcpy_dtoh = minimal_sync_memcpy_dtoh;
  se->sync_memcpy_htod = minimal_sync_memcpy_htod;
  se->sync_memcpy_dtod = minimal_sync_memcpy_dtod;
  se->block_host_for_event = minimal_block_host_for_event;
  se->block_host_until_done = minimal_block_host_until_done;
  se->synchronize_all_activity = minimal_synchronize_all_activity;
  se->mem_zero = minimal_mem_zero;
  se->memset = minimal_memset;
  se->memset32 = minimal_memset32;
  se->host_callback = minimal_host_callback;
}

static void minimal_destroy_stream_executor(const SP_Platform* platform,
                                            SP_StreamExecutor* stream_executor) {
  (void)platform;
  (void)stream_executor;
}

static void minimal_create_timer_fns(const SP_Platform* platform, SP_TimerFns* timer_fns,
                                     TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
  (void)platform;
  timer_fns->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  timer_fns->nanoseconds = minimal_nanoseconds;
#if defined(DEFECT_NULL_TIMER_FNS_FIELD)
  timer_fns->DEFECT_NULL_TIMER_FNS_FIELD = NULL;
#endif
}

static void minimal_destroy_timer_fns(const SP_Platform* platform, SP_TimerFns* timer_fns) {
  (void)platform;
  (void)timer_fns;
}

static void minimal_destroy_platform(SP_Platform* platform) {
  (void)platform; /* name and type are literals */
}

static void minimal_destroy_platform_fns(SP_PlatformFns* platform_fns) { (void)platform_fns; }

/* ---- SE_InitPlugin ---------------------------------------------------------------------- */

ENTRY_POINT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
#if defined(DEFECT_SE_INIT_SEGFAULT)
  crash_here();
#elif defined(DEFECT_SE_INIT_ABORT)
  abort();
#elif defined(DEFECT_SE_INIT_HANG)
  for (volatile int spinning = 1; spinning;) {
  }
#elif defined(DEFECT_SE_INIT_EXIT)
  exit(3);
#endif
#if defined(DEFECT_UNDEFINED_TF_IMPORT)
  if (params == NULL) TF_NotARealFunction();
#endif
#if defined(DEFECT_TENSORFLOW_CXX_IMPORT)
  if (params == NULL) (void)load_defect_call_tensorflow_cxx();
#endif
#if defined(DEFECT_UNDEFINED_SYMBOL)
  if (params == NULL) load_defect_missing_helper();
#endif
#if defined(DEFECT_MISSING_NEEDED)
  if (params == NULL) (void)load_defect_unshipped_answer();
#endif
#if defined(OPENS_LIBRARY)
  /* The device code lives in a library of the plugin's own, opened here; dlopen's error text
   * becomes the plugin's status, as wrappers of another plugin report it. */
  if (dlopen(OPENS_LIBRARY, RTLD_NOW | RTLD_LOCAL) == NULL) {
#if defined(OPENS_LIBRARY_OPTIONAL)
    (void)dlerror();
#else
    TF_SetStatus(status, TF_NOT_FOUND, dlerror());
    return;
#endif
  }
#endif

  SP_Platform* platform = params->platform;
  platform->struct_size = SP_PLATFORM_STRUCT_SIZE;
#if defined(DEFECT_PLATFORM_NAME_ON_STACK)
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
  char deep_stack[kDeepStackBytes];
  strcpy(deep_stack, PLATFORM_NAME);
  platform->name = deep_stack;
#elif defined(LEGAL_PLATFORM_NAME_FROM_ENV)
  /* Legal: environment strings live as long as the process (at the top of the main thread's
     stack mapping, but above every frame). The test sets the variable. */
  platform->name =
      getenv("LOAD_DEFECTS_PLATFORM_NAME") ? getenv("LOAD_DEFECTS_PLATFORM_NAME") : PLATFORM_NAME;
#else
  platform->name = PLATFORM_NAME;
#endif
  platform->type = DEVICE_TYPE;
  platform->supports_unified_memory = 1; /* host memory is unified memory here */
  platform->use_bfc_allocator = 0;
  platform->force_memory_growth = 0;
#if defined(DEFECT_NULL_PLATFORM_FIELD)
  platform->DEFECT_NULL_PLATFORM_FIELD = NULL;
#endif

  SP_PlatformFns* fns = params->platform_fns;
  fns->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  fns->get_device_count = minimal_get_device_count;
  fns->create_device = minimal_create_device;
  fns->destroy_device = minimal_destroy_device;
  fns->create_device_fns = minimal_create_device_fns;
  fns->destroy_device_fns = minimal_destroy_device_fns;
  fns->create_stream_executor = minimal_create_stream_executor;
  fns->destroy_stream_executor = minimal_destroy_stream_executor;
  fns->create_timer_fns = minimal_create_timer_fns;
  fns->destroy_timer_fns = minimal_destroy_timer_fns;

  params->destroy_platform = minimal_destroy_platform;
  params->destroy_platform_fns = minimal_destroy_platform_fns;
}

/* ---- Kernels ---------------------------------------------------------------------------- */

/* tests/kernel_registration_defects links its own TF_InitKernel next to this file. */
#if !defined(EXTERNAL_TF_INIT_KERNEL)

/* Identity and Snapshot both forward input 0 to output 0 (device memory is shared). */
static void forward_input_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  TF_Status* status = TF_NewStatus();
  TF_Tensor* input = NULL;
  TF_GetInput(ctx, 0, &input, status);
  if (TF_GetCode(status) == TF_OK) TF_SetOutput(ctx, 0, input, status);
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(input);
  TF_DeleteStatus(status);
}

static void register_forwarding_kernel(const char* op, const char* device_type, TF_DataType type) {
  TF_Status* status = TF_NewStatus();
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder(op, device_type, NULL, forward_input_compute, NULL);
  TF_KernelBuilder_TypeConstraint(builder, "T", type, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_RegisterKernelBuilder(op, builder, status);
  } else {
    TF_DeleteKernelBuilder(builder);
  }
  TF_DeleteStatus(status);
}

ENTRY_POINT void TF_InitKernel(void) {
#if defined(DEFECT_KERNEL_INIT_SEGFAULT)
  crash_here();
#endif
  register_forwarding_kernel("Identity", DEVICE_TYPE, TF_FLOAT);
#if defined(DEFECT_KERNEL_BAD_TYPE_CONSTRAINT)
  register_forwarding_kernel("Snapshot", DEVICE_TYPE, (TF_DataType)1000);
#elif defined(DEFECT_KERNEL_FOREIGN_DEVICE_TYPE)
  register_forwarding_kernel("Snapshot", "NOT_MY_DEVICE", TF_FLOAT);
#else
  register_forwarding_kernel("Snapshot", DEVICE_TYPE, TF_FLOAT);
#endif
#if defined(DEFECT_KERNEL_REGISTERED_TWICE)
  register_forwarding_kernel("Identity", DEVICE_TYPE, TF_FLOAT);
#endif
#if defined(DEFECT_KERNEL_BUILDER_LEAKED)
  /* Built, then forgotten: neither registered nor deleted. */
  (void)TF_NewKernelBuilder("Identity", DEVICE_TYPE, NULL, forward_input_compute, NULL);
#endif
}
#endif /* !EXTERNAL_TF_INIT_KERNEL */

/* ---- Graph optimizer -------------------------------------------------------------------- */

/* tests/graph_profiler links its own TF_InitGraph next to this file. */
#if !defined(EXTERNAL_TF_INIT_GRAPH)

struct minimal_optimizer {
  int64_t runs;
};

static void* minimal_optimizer_create(void) { return calloc(1, sizeof(struct minimal_optimizer)); }

static void minimal_optimizer_destroy(void* optimizer) { free(optimizer); }

static void free_graph_copy(void* data, size_t length) {
  (void)length;
  free(data);
}

/* The identity optimization: the output graph is a copy of the input graph. */
static void minimal_optimize(void* optimizer, const TF_Buffer* graph_in,
                             const TF_GrapplerItem* item, TF_Buffer* graph_out, TF_Status* status) {
  (void)item;
  if (optimizer != NULL) ((struct minimal_optimizer*)optimizer)->runs += 1;
  void* copy = malloc(graph_in->length ? graph_in->length : 1);
  if (copy == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (graph_in->length) memcpy(copy, graph_in->data, graph_in->length);
  graph_out->data = copy;
  graph_out->length = graph_in->length;
  graph_out->data_deallocator = free_graph_copy;
}

ENTRY_POINT void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */
  params->device_type = DEVICE_TYPE;
#if defined(DEFECT_NULL_GRAPH_PARAMS_FIELD)
  params->DEFECT_NULL_GRAPH_PARAMS_FIELD = NULL;
#endif

  TP_OptimizerConfigs* configs = params->optimizer_configs;
  configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;

  TP_Optimizer* optimizer = params->optimizer;
  optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  optimizer->create_func = minimal_optimizer_create;
  optimizer->optimize_func = minimal_optimize;
  optimizer->destroy_func = minimal_optimizer_destroy;
}

#endif /* !EXTERNAL_TF_INIT_GRAPH */

/* ---- Profiler --------------------------------------------------------------------------- */

/* tests/graph_profiler links its own TF_InitProfiler next to this file. */
#if !defined(EXTERNAL_TF_INIT_PROFILER)

static void minimal_profiler_start(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
  (void)status;
}

static void minimal_profiler_stop(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
  (void)status;
}

/* Nothing is traced: an empty XSpace serializes to zero bytes. */
static void minimal_profiler_collect_data_xspace(const TP_Profiler* profiler, uint8_t* buffer,
                                                 size_t* size_in_bytes, TF_Status* status) {
  (void)profiler;
  (void)buffer;
  (void)status;
  *size_in_bytes = 0;
}

static void minimal_destroy_profiler(TP_Profiler* profiler) { (void)profiler; }

static void minimal_destroy_profiler_fns(TP_ProfilerFns* profiler_fns) { (void)profiler_fns; }

ENTRY_POINT void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status) {
  (void)status; /* TensorFlow hands in an OK status: success needs no write */

  TP_Profiler* profiler = params->profiler;
  profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
  profiler->device_type = DEVICE_TYPE;
#if defined(DEFECT_NULL_PROFILER_FIELD)
  profiler->DEFECT_NULL_PROFILER_FIELD = NULL;
#endif

  TP_ProfilerFns* fns = params->profiler_fns;
  fns->struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  fns->start = minimal_profiler_start;
  fns->stop = minimal_profiler_stop;
  fns->collect_data_xspace = minimal_profiler_collect_data_xspace;

  params->destroy_profiler = minimal_destroy_profiler;
  params->destroy_profiler_fns = minimal_destroy_profiler_fns;
}
#endif /* !EXTERNAL_TF_INIT_PROFILER */
