/* Clean-room TensorFlow C API: string tensor elements.
 *
 * Matches the names and signatures of TensorFlow's tensorflow/c/tf_tstring.h.
 * The element type and its header-inline functions (TF_TString_Init,
 * TF_TString_Copy, TF_TString_GetDataPointer, ...) are in
 * tensorflow/core/platform/ctstring.h; the exported functions below are out-of-line
 * versions of some of them. TensorFlow 2.21.0 exports them from
 * libtensorflow_cc.so.2, not libtensorflow_framework.so.2; the plugin_conformance
 * mock core does not export them yet, so a plugin that imports them is reported
 * as importing symbols the core lacks: the inline functions need nothing.
 */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include <stddef.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/platform/ctstring.h"

#ifdef __cplusplus
extern "C" {
#endif

TF_CAPI_EXPORT extern void TF_StringInit(TF_TString* t);
TF_CAPI_EXPORT extern void TF_StringCopy(TF_TString* dst, const char* src, size_t size);
TF_CAPI_EXPORT extern void TF_StringAssignView(TF_TString* dst, const char* src, size_t size);
TF_CAPI_EXPORT extern const char* TF_StringGetDataPointer(const TF_TString* tstr);
TF_CAPI_EXPORT extern TF_TString_Type TF_StringGetType(const TF_TString* str);
TF_CAPI_EXPORT extern size_t TF_StringGetSize(const TF_TString* tstr);
TF_CAPI_EXPORT extern size_t TF_StringGetCapacity(const TF_TString* str);
TF_CAPI_EXPORT extern void TF_StringDealloc(TF_TString* tstr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
