// The library the unhosted_c_api_import variant loads: like ITEX's libitex_common.so, it calls a
// TensorFlow C API function the mock core does not implement (TF_GetAllOpList, which
// libtensorflow_cc.so.2 exports) and links one of TensorFlow's own libraries
// (_pywrap_tensorflow_internal.so), through which TensorFlow 2.15.1 provides it.
struct TF_Buffer;
struct TF_Buffer* TF_GetAllOpList(void);

struct TF_Buffer* load_defect_all_op_list(void) {
  return TF_GetAllOpList();
}
