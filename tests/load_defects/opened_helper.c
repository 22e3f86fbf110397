/* The library the opens_* variants open in SE_InitPlugin, as a plugin that keeps its device code
 * in a library of its own (or a wrapper that opens the plugin it forwards to) does. Built twice:
 * with OPENED_HELPER_IMPORTS_GRAPPLER it imports TF_GetOutputPropertiesListSize, which TensorFlow
 * 2.15.1 defines only in libtensorflow_cc.so.2, out of reach of a library linking the framework
 * (the reference plugin's import that 2.15.1 refuses); without, only functions every profile
 * exports. Either way it links libtensorflow_framework.so.2, as the plugin does. Nothing calls
 * the function: opening the library binds its imports (RTLD_NOW), which is what is tested. */
#include "tensorflow/c/tf_status.h"
#if defined(OPENED_HELPER_IMPORTS_GRAPPLER)
#include "tensorflow/c/experimental/grappler/grappler.h"
#endif

int opened_helper_output_count(void* graph_properties, const char* node) {
  TF_Status* status = TF_NewStatus();
  int outputs = 0;
#if defined(OPENED_HELPER_IMPORTS_GRAPPLER)
  TF_GetOutputPropertiesListSize((TF_GraphProperties*)graph_properties, node, &outputs, status);
#else
  (void)graph_properties;
  (void)node;
#endif
  if (TF_GetCode(status) != TF_OK) outputs = -1;
  TF_DeleteStatus(status);
  return outputs;
}
