/* The NextPluggableDevice half of the tests/graph_profiler plugins: TFNPD_InitPlugin and
 * GetPjrtApi next to tests/load_defects/plugin.c's correct StreamExecutor plugin.
 * Built without a DEFECT_NPD_* switch (npd_pjrt_0_70) it fills every output TensorFlow reads while
 * loading. Each switch breaks exactly one of them (see CMakeLists.txt and expectations.yaml). */
#include <stddef.h>
#include <string.h>

#include "tensorflow/c/tf_status.h"
#include "tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h"

#define ENTRY_POINT __attribute__((visibility("default")))

static int32_t npd_get_device_count(TF_Status* status) {
  TF_SetStatus(status, TF_OK, "");
  return 1;
}

static void npd_init_device_states(TF_Status* status) { TF_SetStatus(status, TF_OK, ""); }

static TFNPD_Api npd_api;

ENTRY_POINT const TFNPD_Api* TFNPD_InitPlugin(TFNPD_PluginParams* params, TF_Status* status) {
#if defined(DEFECT_NPD_INIT_SEGFAULT)
  /* TensorFlow 2.12 and later die with it while loading; 2.5 to 2.11 never call it. */
  int* volatile nowhere = NULL;
  *nowhere = 42;
#endif
#if defined(DEFECT_NPD_INIT_FAILS)
  TF_SetStatus(status, TF_INTERNAL, "npd plugin: TFNPD_InitPlugin failed on purpose");
  return NULL;
#endif
  memset(&npd_api, 0, sizeof npd_api);
#if !defined(DEFECT_NPD_API_STRUCT_SIZE_ZERO)
  npd_api.struct_size = TFNPD_Api_STRUCT_SIZE;
#endif
  npd_api.TFNPD_GetDeviceCount = npd_get_device_count;
  npd_api.TFNPD_InitPluginInternalDeviceStates = npd_init_device_states;
#if !defined(DEFECT_NPD_NULL_DEVICE_TYPE)
  params->device_type = "MINIMAL_NPD";
#endif
#if !defined(DEFECT_NPD_NULL_COMPILATION_DEVICE_NAME)
  params->compilation_device_name = "XLA_MINIMAL_NPD";
#endif
  params->priority = 0;
  params->is_pluggable_device = 0;
  TF_SetStatus(status, TF_OK, "");
#if defined(DEFECT_NPD_NULL_API)
  return NULL;
#else
  return &npd_api;
#endif
}

/* GetPjrtApi: the head of a PJRT_Api of version 0.70 with PJRT_Plugin_Initialize set, the rest
 * of the table zero, 584 bytes. It is all TensorFlow reads while loading the plugin. 2.21.0
 * accepts it (no size check; version 0.29 or later): built against the 176-byte TFNPD_Api of
 * specs/include, the plugin loads, MINIMAL_NPD:0 is listed and eager ops run (measured in Python).
 * 2.15.1 refuses it: it wants exactly its own 792 bytes (specs/profiles/tf2_15.yaml pjrt_api).
 * A PJRT client, which no fixture here has, is not judged by the suite.
 * DEFECT_NPD_PJRT_MINOR_28 gives version 0.28, which 2.21.0 refuses (INVALID_ARGUMENT, abort).
 * DEFECT_NPD_NO_PJRT leaves GetPjrtApi out (a warning: TensorFlow registers the StreamExecutor
 * device only and runs the plugin); the DEFECT_NPD_PJRT_* switches break the table in ways
 * TensorFlow dies of, or refuses, while loading. */
#if !defined(DEFECT_NPD_NO_PJRT)
#if defined(DEFECT_NPD_PJRT_NULL)
ENTRY_POINT const void* GetPjrtApi(void) { return NULL; }
#else
#if !defined(DEFECT_NPD_PJRT_NO_INITIALIZE)
static void* pjrt_plugin_initialize(void* args) {
  (void)args;
  return NULL; /* no PJRT_Error: success */
}
#endif
static struct {
  size_t struct_size;
  void* extension_start;
  struct {
    size_t struct_size;
    void* extension_start;
    int major_version;
    int minor_version;
  } pjrt_api_version;
  void* error_functions[3];
  void* (*plugin_initialize)(void*);
  void* rest[64];
} pjrt_api;
ENTRY_POINT const void* GetPjrtApi(void) {
  pjrt_api.struct_size = sizeof pjrt_api;
  pjrt_api.pjrt_api_version.struct_size = sizeof pjrt_api.pjrt_api_version;
#if defined(DEFECT_NPD_PJRT_MINOR_28)
  pjrt_api.pjrt_api_version.minor_version = 28; /* 2.21.0's minimum is 0.29 */
#else
  pjrt_api.pjrt_api_version.minor_version = 70;
#endif
#if !defined(DEFECT_NPD_PJRT_NO_INITIALIZE)
  pjrt_api.plugin_initialize = pjrt_plugin_initialize;
#endif
  return &pjrt_api;
}
#endif
#endif
