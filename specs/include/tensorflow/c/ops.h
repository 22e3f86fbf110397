/* Clean-room TensorFlow op-registration and shape-inference C API.
 *
 * Matches the names and signatures of TensorFlow's tensorflow/c/ops.h.
 *
 * Difference: TensorFlow only forward-declares the four handle structs (which
 * compiles as C++ but not as C); this header also typedefs them so C plugins can
 * use the unqualified names. `struct TF_ShapeHandle*` keeps working in C++.
 */
#ifndef TENSORFLOW_C_OPS_H_
#define TENSORFLOW_C_OPS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_DimensionHandle TF_DimensionHandle;
typedef struct TF_OpDefinitionBuilder TF_OpDefinitionBuilder;
typedef struct TF_ShapeHandle TF_ShapeHandle;
typedef struct TF_ShapeInferenceContext TF_ShapeInferenceContext;

/* ---- Op definition ------------------------------------------------------ */

/* New builder for op `op_name`. Release it with exactly one of
 * TF_RegisterOpDefinition or TF_DeleteOpDefinitionBuilder. */
TF_CAPI_EXPORT extern TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(const char* op_name);

/* Registers the op; frees `builder` whatever the outcome. */
TF_CAPI_EXPORT extern void TF_RegisterOpDefinition(TF_OpDefinitionBuilder* builder,
                                                   TF_Status* status);

TF_CAPI_EXPORT extern void TF_DeleteOpDefinitionBuilder(TF_OpDefinitionBuilder* builder);

/* Attribute spec "name: type" or "name: type = default". */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddAttr(TF_OpDefinitionBuilder* builder,
                                                         const char* attr_spec);

/* Input/output spec "name: type-expr" or "name: Ref(type-expr)". */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddInput(TF_OpDefinitionBuilder* builder,
                                                          const char* input_spec);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddOutput(TF_OpDefinitionBuilder* builder,
                                                           const char* output_spec);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsCommutative(TF_OpDefinitionBuilder* builder,
                                                                  bool is_commutative);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsAggregate(TF_OpDefinitionBuilder* builder,
                                                                bool is_aggregate);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsStateful(TF_OpDefinitionBuilder* builder,
                                                               bool is_stateful);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetAllowsUninitializedInput(
    TF_OpDefinitionBuilder* builder, bool allows_uninitialized_input);

/* Marks the op deprecated from GraphDef version `version` on. */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderDeprecated(TF_OpDefinitionBuilder* builder,
                                                            int version, const char* explanation);

TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx, TF_Status* status));

/* ---- Shape inference ---------------------------------------------------- */

TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextNumInputs(TF_ShapeInferenceContext* ctx);

/* Handles below are caller-owned; free with TF_DeleteShapeHandle /
 * TF_DeleteDimensionHandle. */
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_NewShapeHandle(void);

TF_CAPI_EXPORT extern void TF_ShapeInferenceContextGetInput(TF_ShapeInferenceContext* ctx, int i,
                                                            TF_ShapeHandle* handle,
                                                            TF_Status* status);

/* Copies `handle` into output i. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetOutput(TF_ShapeInferenceContext* ctx, int i,
                                                             TF_ShapeHandle* handle,
                                                             TF_Status* status);

TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextScalar(TF_ShapeInferenceContext* ctx);

TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(
    TF_ShapeInferenceContext* ctx, size_t size);

TF_CAPI_EXPORT extern TF_DimensionHandle* TF_NewDimensionHandle(void);

TF_CAPI_EXPORT extern void TF_ShapeInferenceContext_GetAttrType(TF_ShapeInferenceContext* ctx,
                                                                const char* attr_name,
                                                                TF_DataType* val,
                                                                TF_Status* status);

TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextRank(TF_ShapeInferenceContext* ctx,
                                                           TF_ShapeHandle* handle);

/* 1 if the rank of `handle` is known, else 0. */
TF_CAPI_EXPORT extern int TF_ShapeInferenceContextRankKnown(TF_ShapeInferenceContext* ctx,
                                                            TF_ShapeHandle* handle);

/* Rank assertions: *result receives the shape with the rank constraint
 * applied; an incompatible known rank is an error. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRank(TF_ShapeInferenceContext* ctx,
                                                            TF_ShapeHandle* handle, int64_t rank,
                                                            TF_ShapeHandle* result,
                                                            TF_Status* status);

TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtLeast(TF_ShapeInferenceContext* ctx,
                                                                   TF_ShapeHandle* handle,
                                                                   int64_t rank,
                                                                   TF_ShapeHandle* result,
                                                                   TF_Status* status);

TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtMost(TF_ShapeInferenceContext* ctx,
                                                                  TF_ShapeHandle* handle,
                                                                  int64_t rank,
                                                                  TF_ShapeHandle* result,
                                                                  TF_Status* status);

/* Dimension i of shape_handle into *result. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextDim(TF_ShapeInferenceContext* ctx,
                                                       TF_ShapeHandle* shape_handle, int64_t i,
                                                       TF_DimensionHandle* result);

/* Dimensions [start, end) of shape_handle (negative values count from the
 * end) into *result. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSubshape(TF_ShapeInferenceContext* ctx,
                                                            TF_ShapeHandle* shape_handle,
                                                            int64_t start, int64_t end,
                                                            TF_ShapeHandle* result,
                                                            TF_Status* status);

/* Sets every output to an unknown shape. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetUnknownShape(TF_ShapeInferenceContext* ctx,
                                                                   TF_Status* status);

TF_CAPI_EXPORT extern int TF_DimensionHandleValueKnown(TF_DimensionHandle* dim_handle);

TF_CAPI_EXPORT extern int64_t TF_DimensionHandleValue(TF_DimensionHandle* dim_handle);

/* *result = dimensions of `first` followed by those of `second`. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextConcatenateShapes(TF_ShapeInferenceContext* ctx,
                                                                     TF_ShapeHandle* first,
                                                                     TF_ShapeHandle* second,
                                                                     TF_ShapeHandle* result,
                                                                     TF_Status* status);

TF_CAPI_EXPORT extern void TF_DeleteShapeHandle(TF_ShapeHandle* handle);

TF_CAPI_EXPORT extern void TF_DeleteDimensionHandle(TF_DimensionHandle* handle);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_OPS_H_ */
