/* A graph optimizer for the graph tier: its TF_InitGraph replaces tests/load_defects/plugin.c's
 * (built with EXTERNAL_TF_INIT_GRAPH). Without a DEFECT_OPTIMIZER_* switch it asks the core for
 * the nodes to preserve and returns a copy of its input. Each switch breaks one rule. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

#define ENTRY_POINT __attribute__((visibility("default")))

static void free_output(void* data, size_t length) {
  (void)length;
  free(data);
}

#if defined(DEFECT_OPTIMIZER_DROPS_PRESERVED)
/* Reads one varint; returns the bytes it used, 0 when malformed. */
static size_t read_varint(const uint8_t* p, const uint8_t* end, uint64_t* value) {
  size_t used = 0;
  *value = 0;
  for (int shift = 0; p + used < end && shift < 64; shift += 7) {
    uint8_t byte = p[used++];
    *value |= (uint64_t)(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return used;
  }
  return 0;
}

/* The offset of the last GraphDef.node (field 1) entry: everything after it is kept. */
static size_t last_node(const uint8_t* data, size_t length, size_t* entry_size) {
  size_t at = 0, found = length;
  *entry_size = 0;
  while (at < length) {
    uint64_t tag, size = 0;
    size_t n = read_varint(data + at, data + length, &tag);
    if (n == 0) break;
    size_t header = n;
    if ((tag & 7) == 2) {
      n = read_varint(data + at + header, data + length, &size);
      if (n == 0) break;
      header += n;
    } else if ((tag & 7) == 0) {
      uint64_t ignored;
      size = read_varint(data + at + header, data + length, &ignored);
    } else {
      size = (tag & 7) == 1 ? 8 : 4;
    }
    if ((tag >> 3) == 1) {
      found = at;
      *entry_size = header + (size_t)size;
    }
    at += header + (size_t)size;
  }
  return found;
}
#endif

static void optimize(void* optimizer, const TF_Buffer* graph_in, const TF_GrapplerItem* item,
                     TF_Buffer* graph_out, TF_Status* status) {
  (void)optimizer;
  int preserved = 0;
  size_t storage = 0;
  TF_GetNodesToPreserveListSize(item, &preserved, &storage, status);
  if (TF_GetCode(status) != TF_OK) return;
#if defined(DEFECT_OPTIMIZER_FAILS)
  TF_SetStatus(status, TF_INTERNAL, "optimizer: failed on purpose");
  return;
#endif
  uint8_t* copy = malloc(graph_in->length + 16);
  if (copy == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  size_t length = graph_in->length;
  memcpy(copy, graph_in->data, length);
#if defined(DEFECT_OPTIMIZER_UNPARSABLE_GRAPH)
  memset(copy, 0xff, 16); /* not a protobuf message */
  length = 16;
#elif defined(DEFECT_OPTIMIZER_DROPS_PRESERVED)
  /* "Dead code elimination" that forgets the fetch: the last node goes. */
  size_t entry_size;
  size_t at = last_node(copy, length, &entry_size);
  if (at < length) {
    memmove(copy + at, copy + at + entry_size, length - at - entry_size);
    length -= entry_size;
  }
#elif defined(DEFECT_OPTIMIZER_MODIFIES_INPUT)
  /* Uses the input as scratch space: the first node's tag byte is overwritten. */
  ((uint8_t*)graph_in->data)[0] = 0;
#endif
  graph_out->data = copy;
  graph_out->length = length;
  graph_out->data_deallocator = free_output;
  TF_SetStatus(status, TF_OK, "");
}

static void* create(void) { return malloc(1); }
static void destroy(void* optimizer) { free(optimizer); }

ENTRY_POINT void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->device_type = "MINIMAL_DEVICE";
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params->optimizer_configs->remapping = TF_TriState_Off;
  params->optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  params->optimizer->create_func = create;
  params->optimizer->optimize_func = optimize;
  params->optimizer->destroy_func = destroy;
  TF_SetStatus(status, TF_OK, "");
}
