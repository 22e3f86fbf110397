/* Clean-room TensorFlow C API: the one function of tensorflow/c/c_api_experimental.h
 * that C-API plugins import (ITEX's CPU build). */
#ifndef TENSORFLOW_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_C_API_EXPERIMENTAL_H_

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the registered op `op_type` is stateful, 0 otherwise; NOT_FOUND (and 0)
 * when no op of that name is registered. */
TF_CAPI_EXPORT extern int TF_OpIsStateful(const char* op_type, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
