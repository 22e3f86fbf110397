// The library the unhosted_c_api_import variant loads: it calls a TensorFlow C API function the
// mock core does not implement (TF_NewGraph, c_api.h's graph API, which libtensorflow_cc.so.2
// exports) and links one of TensorFlow's own libraries (_pywrap_tensorflow_internal.so),
// through which TensorFlow 2.15.1 provides it. ITEX's CPU build loaded so until the core
// implemented the registry functions its libitex_common.so imports.
struct TF_Graph;
struct TF_Graph* TF_NewGraph(void);

struct TF_Graph* load_defect_new_graph(void) {
  return TF_NewGraph();
}
