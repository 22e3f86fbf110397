/* Clean-room TensorFlow C API: string tensor elements.
 *
 * At TensorFlow's include path tensorflow/c/tf_tstring.h. The element type of
 * TF_STRING tensors and its header-inline functions (TF_TString_Init,
 * TF_TString_Copy, TF_TString_GetDataPointer, ...) are in
 * tensorflow/core/platform/ctstring.h, included here: they are all a plugin needs.
 *
 * TensorFlow's header also declares out-of-line versions of some of them
 * (TF_StringInit, TF_StringCopy, TF_StringAssignView, TF_StringGetDataPointer,
 * TF_StringGetType, TF_StringGetSize, TF_StringGetCapacity, TF_StringDealloc),
 * which TensorFlow 2.21.0 exports from libtensorflow_cc.so.2 only. They are left
 * out: the mock core does not export them, and which releases make them reachable
 * to a plugin is not yet among the profiles' export facts (specs/profiles/exports).
 */
#ifndef TENSORFLOW_C_TF_TSTRING_H_
#define TENSORFLOW_C_TF_TSTRING_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/platform/ctstring.h"

#endif /* TENSORFLOW_C_TF_TSTRING_H_ */
