/* A profiler that traces something, for the profiler tier: its TF_InitProfiler replaces
 * tests/load_defects/plugin.c's (built with EXTERNAL_TF_INIT_PROFILER). Without a
 * DEFECT_PROFILER_* switch it serializes a small valid XSpace (one plane, one line, one event)
 * and follows the two-call size protocol. Each switch breaks one rule. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/tf_status.h"

#define ENTRY_POINT __attribute__((visibility("default")))

/* XSpace{planes: [XPlane{id: 1, name: "/device:MINIMAL:0",
 *        lines: [XLine{id: 1, name: "stream", events: [XEvent{metadata_id: 1, offset_ps: 5,
 *        duration_ps: 7}]}]}]}, hand-encoded (field numbers of xplane.proto). */
static const uint8_t kEvent[] = {0x08, 0x01, 0x10, 0x05, 0x18, 0x07};
static uint8_t xspace[128];
static size_t xspace_size;

static void put_bytes(uint8_t** p, uint8_t tag, const void* data, size_t n) {
  *(*p)++ = tag;
  *(*p)++ = (uint8_t)n; /* every payload here is shorter than 128 bytes */
  memcpy(*p, data, n);
  *p += n;
}

static void build_xspace(void) {
  uint8_t line[64], plane[96], *p = line;
  *p++ = 0x08;
  *p++ = 0x01;                                /* XLine.id = 1 */
  put_bytes(&p, 0x12, "stream", 6);           /* XLine.name */
  put_bytes(&p, 0x22, kEvent, sizeof kEvent); /* XLine.events */
  size_t line_size = (size_t)(p - line);
  p = plane;
  *p++ = 0x08;
  *p++ = 0x01;                                  /* XPlane.id = 1 */
  put_bytes(&p, 0x12, "/device:MINIMAL:0", 17); /* XPlane.name */
  put_bytes(&p, 0x1a, line, line_size);         /* XPlane.lines */
  size_t plane_size = (size_t)(p - plane);
  p = xspace;
  put_bytes(&p, 0x0a, plane, plane_size); /* XSpace.planes */
  xspace_size = (size_t)(p - xspace);
}

static int* session; /* created by start, released by stop */

static void profiler_start(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
  if (session == NULL) session = calloc(1, sizeof *session);
  *session = 1;
  build_xspace();
  TF_SetStatus(status, TF_OK, "");
}

static void profiler_stop(const TP_Profiler* profiler, TF_Status* status) {
  (void)profiler;
#if defined(DEFECT_PROFILER_STOP_BEFORE_START)
  *session = 0; /* assumes start ran: NULL dereference when it did not */
#else
  if (session == NULL) {
    TF_SetStatus(status, TF_FAILED_PRECONDITION, "profiler: stop without start");
    return;
  }
  *session = 0;
#endif
  TF_SetStatus(status, TF_OK, "");
}

static void profiler_collect_data_xspace(const TP_Profiler* profiler, uint8_t* buffer,
                                         size_t* size_in_bytes, TF_Status* status) {
  (void)profiler;
  TF_SetStatus(status, TF_OK, "");
  if (buffer == NULL) {
    *size_in_bytes = xspace_size;
    return;
  }
#if defined(DEFECT_PROFILER_OVERSIZE_XSPACE)
  /* Writes a trailing padding block the size query did not announce. */
  memcpy(buffer, xspace, xspace_size);
  memset(buffer + xspace_size, 0, 16);
  *size_in_bytes = xspace_size + 16;
#elif defined(DEFECT_PROFILER_UNPARSABLE_XSPACE)
  memset(buffer, 0xff, xspace_size); /* not a protobuf message */
#else
  memcpy(buffer, xspace, xspace_size);
  *size_in_bytes = xspace_size;
#endif
}

static void destroy_profiler(TP_Profiler* profiler) { (void)profiler; }
static void destroy_profiler_fns(TP_ProfilerFns* fns) { (void)fns; }

ENTRY_POINT void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status) {
  params->profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
  params->profiler->device_type = "MINIMAL_DEVICE";
  params->profiler_fns->struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  params->profiler_fns->start = profiler_start;
  params->profiler_fns->stop = profiler_stop;
  params->profiler_fns->collect_data_xspace = profiler_collect_data_xspace;
  params->destroy_profiler = destroy_profiler;
  params->destroy_profiler_fns = destroy_profiler_fns;
  TF_SetStatus(status, TF_OK, "");
}
