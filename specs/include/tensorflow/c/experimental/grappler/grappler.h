/* Clean-room TensorFlow graph-optimizer plugin C API (GO/TP_*).
 *
 * Reproduces the newest known layout of TensorFlow's
 * tensorflow/c/experimental/grappler/grappler.h: 19 optimizer toggles, with
 * auto_mixed_precision_onednn_bfloat16 at offset 52 (TP_OPTIMIZER_CONFIGS_STRUCT_SIZE
 * 92, sizeof 96). All TP_* structs here are filled by the plugin.
 */
#ifndef TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_
#define TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

/* Graph-optimizer C API version reported to TF_InitGraph (never bumped). */
#define GO_MAJOR 0
#define GO_MINOR 0
#define GO_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

/* Per-optimizer switch: Default leaves TensorFlow's choice in place. */
typedef enum TF_TriState {
  TF_TriState_Default = 0,
  TF_TriState_Off = 1,
  TF_TriState_On = 2
} TF_TriState;

/* Opaque view of the graph being optimized (feeds, fetches, preserved nodes). */
typedef struct TF_GrapplerItem TF_GrapplerItem;

/* Which of TensorFlow's own graph passes to run alongside the plugin's. */
typedef struct TP_OptimizerConfigs {
  size_t struct_size;
  void* ext;
  TF_TriState disable_model_pruning;
  TF_TriState implementation_selector;
  TF_TriState function_optimization;
  TF_TriState common_subgraph_elimination;
  TF_TriState arithmetic_optimization;
  TF_TriState debug_stripper;
  TF_TriState constant_folding;
  TF_TriState shape_optimization;
  TF_TriState auto_mixed_precision;
  TF_TriState auto_mixed_precision_onednn_bfloat16;
  TF_TriState auto_mixed_precision_mkl;
  TF_TriState pin_to_host_optimization;
  TF_TriState layout_optimizer;
  TF_TriState remapping;
  TF_TriState loop_optimization;
  TF_TriState dependency_optimization;
  TF_TriState auto_parallel;
  TF_TriState memory_optimization;
  TF_TriState scoped_allocator_optimization;
} TP_OptimizerConfigs;

#define TP_OPTIMIZER_CONFIGS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TP_OptimizerConfigs, scoped_allocator_optimization)

/* The plugin's optimizer. optimize_func is required; create_func and
 * destroy_func are optional (set both or neither). optimize_func receives
 * create_func's result, the serialized input GraphDef, the item, and a buffer
 * to fill with the serialized output GraphDef. */
typedef struct TP_Optimizer {
  size_t struct_size;
  void* ext;
  void* (*create_func)(void);
  void (*optimize_func)(void*, const TF_Buffer*, const TF_GrapplerItem*, TF_Buffer*, TF_Status*);
  void (*destroy_func)(void*);
} TP_Optimizer;

#define TP_OPTIMIZER_STRUCT_SIZE TF_OFFSET_OF_END(TP_Optimizer, destroy_func)

/* Handed to TF_InitGraph; the core provides the storage behind
 * optimizer_configs and optimizer. */
typedef struct TP_OptimizerRegistrationParams {
  size_t struct_size;
  void* ext;
  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;
  const char* device_type; /* set by the plugin; must outlive the process */
  TP_OptimizerConfigs* optimizer_configs;
  TP_Optimizer* optimizer;
} TP_OptimizerRegistrationParams;

#define TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TP_OptimizerRegistrationParams, optimizer)

/* Defined by the plugin (no TF_CAPI_EXPORT in the newest header). */
void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status);

/* ---- Grappler item queries (exported by the core) ----------------------- */

/* Count and total byte size of the names of nodes that must survive
 * optimization (feeds, fetches, keep/init ops). */
TF_CAPI_EXPORT extern void TF_GetNodesToPreserveListSize(const TF_GrapplerItem* item,
                                                         int* num_values, size_t* storage_size,
                                                         TF_Status* status);

/* Copies those names into `storage`; values[i]/lengths[i] point into it. */
TF_CAPI_EXPORT extern void TF_GetNodesToPreserveList(const TF_GrapplerItem* item, char** values,
                                                     size_t* lengths, int num_values, void* storage,
                                                     size_t storage_size, TF_Status* status);

/* Same pair of calls for the fetch nodes. */
TF_CAPI_EXPORT extern void TF_GetFetchNodesListSize(const TF_GrapplerItem* item, int* num_values,
                                                    size_t* storage_size, TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetFetchNodesList(const TF_GrapplerItem* item, char** values,
                                                size_t* lengths, int num_values, void* storage,
                                                size_t storage_size, TF_Status* status);

/* ---- Static shape/type inference ---------------------------------------- */

typedef struct TF_GraphProperties TF_GraphProperties;

/* `item` must outlive the returned object. */
TF_CAPI_EXPORT extern TF_GraphProperties* TF_NewGraphProperties(const TF_GrapplerItem* item);

TF_CAPI_EXPORT extern void TF_DeleteGraphProperties(TF_GraphProperties* graph_properties);

TF_CAPI_EXPORT extern void TF_InferStatically(TF_GraphProperties* graph_properties,
                                              TF_Bool assume_valid_feeds,
                                              TF_Bool aggressive_shape_inference,
                                              TF_Bool include_input_tensor_values,
                                              TF_Bool include_output_tensor_values, TF_Status* s);

TF_CAPI_EXPORT extern void TF_GetInputPropertiesListSize(TF_GraphProperties* graph_properties,
                                                         const char* name, int* num_values,
                                                         TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetOutputPropertiesListSize(TF_GraphProperties* graph_properties,
                                                          const char* name, int* num_values,
                                                          TF_Status* status);

/* properties[i] are caller-allocated buffers, each receiving one serialized
 * TensorProperties proto. */
TF_CAPI_EXPORT extern void TF_GetInputPropertiesList(TF_GraphProperties* graph_properties,
                                                     const char* name, TF_Buffer** properties,
                                                     int num_values, TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetOutputPropertiesList(TF_GraphProperties* graph_properties,
                                                      const char* name, TF_Buffer** properties,
                                                      int num_values, TF_Status* status);

/* ---- Function library lookups ------------------------------------------- */

typedef struct TF_FunctionLibraryDefinition TF_FunctionLibraryDefinition;

/* Built from a serialized GraphDef (the parameter was non-const in older
 * headers; same ABI). */
TF_CAPI_EXPORT extern TF_FunctionLibraryDefinition* TF_NewFunctionLibraryDefinition(
    const TF_Buffer* graph_buf, TF_Status* status);

TF_CAPI_EXPORT extern void TF_DeleteFunctionLibraryDefinition(TF_FunctionLibraryDefinition* fn_lib);

/* Serialized OpDef of op `name` into *buf. */
TF_CAPI_EXPORT extern void TF_LookUpOpDef(TF_FunctionLibraryDefinition* fn_lib, const char* name,
                                          TF_Buffer* buf, TF_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_ */
