#pragma once
// The slice of TensorFlow's C and eager C API the driver calls, resolved at run time with dlsym
// from the wheel's libtensorflow_cc.so.2 (up to 2.11: python/_pywrap_tensorflow_internal.so),
// so the driver builds without TensorFlow and one binary serves every release. The prototypes are
// written from the API's documented facts (names, argument order and types); every handle is opaque
// here.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tensorflow_driver {

struct TfStatus;
struct TfLibrary;
struct TfTensor;
struct TfDeviceList;
struct TfeContextOptions;
struct TfeContext;
struct TfeTensorHandle;
struct TfeOp;
struct TfGraph;
struct TfOperation;
struct TfOperationDescription;
struct TfSessionOptions;
struct TfSession;

// TF_Output: one output of an operation in a graph.
struct TfOutput {
  TfOperation* oper;
  int index;
};

// TF_Buffer's layout (c_api.h): the bytes, their length, and how to free them.
struct TfBuffer {
  const void* data;
  size_t length;
  void (*data_deallocator)(void* data, size_t length);
};

// TF_DataType and TF_Code are C enums: int-sized.
using TfDataType = int;
using TfCode = int;

struct TensorFlowCApi {
  const char* (*version)();
  TfStatus* (*new_status)();
  void (*delete_status)(TfStatus*);
  TfCode (*get_code)(const TfStatus*);
  const char* (*message)(const TfStatus*);

  TfLibrary* (*load_pluggable_device_library)(const char* path, TfStatus*);

  TfeContextOptions* (*new_context_options)();
  void (*context_options_set_device_placement_policy)(TfeContextOptions*, int policy);
  void (*delete_context_options)(TfeContextOptions*);
  TfeContext* (*new_context)(const TfeContextOptions*, TfStatus*);
  void (*delete_context)(TfeContext*);
  TfDeviceList* (*context_list_devices)(TfeContext*, TfStatus*);
  int (*device_list_count)(const TfDeviceList*);
  const char* (*device_list_name)(const TfDeviceList*, int index, TfStatus*);
  const char* (*device_list_type)(const TfDeviceList*, int index, TfStatus*);
  void (*delete_device_list)(TfDeviceList*);

  TfTensor* (*allocate_tensor)(TfDataType, const int64_t* dims, int num_dims, size_t len);
  void* (*tensor_data)(const TfTensor*);
  size_t (*tensor_byte_size)(const TfTensor*);
  TfDataType (*tensor_type)(const TfTensor*);
  void (*delete_tensor)(TfTensor*);

  TfeTensorHandle* (*new_tensor_handle)(const TfTensor*, TfStatus*);
  void (*delete_tensor_handle)(TfeTensorHandle*);
  TfeTensorHandle* (*copy_to_device)(TfeTensorHandle*, TfeContext*, const char* device, TfStatus*);
  TfTensor* (*resolve)(TfeTensorHandle*, TfStatus*);
  const char* (*backing_device_name)(TfeTensorHandle*, TfStatus*);

  TfeOp* (*new_op)(TfeContext*, const char* op_name, TfStatus*);
  void (*delete_op)(TfeOp*);
  void (*op_set_device)(TfeOp*, const char* device, TfStatus*);
  void (*op_add_input)(TfeOp*, TfeTensorHandle*, TfStatus*);
  void (*op_set_attr_type)(TfeOp*, const char* attr, TfDataType);
  void (*execute)(TfeOp*, TfeTensorHandle** outputs, int* num_outputs, TfStatus*);

  // Kernel cases (kernel_cases.h): attrs of every kind kernel scenarios write, list inputs and
  // the shape of a result.
  int (*op_get_attr_type)(TfeOp*, const char* attr, unsigned char* is_list, TfStatus*);
  void (*op_set_attr_int)(TfeOp*, const char* attr, int64_t value);
  void (*op_set_attr_float)(TfeOp*, const char* attr, float value);
  void (*op_set_attr_bool)(TfeOp*, const char* attr, unsigned char value);
  void (*op_set_attr_string)(TfeOp*, const char* attr, const void* value, size_t length);
  void (*op_set_attr_int_list)(TfeOp*, const char* attr, const int64_t* values, int count);
  void (*op_set_attr_float_list)(TfeOp*, const char* attr, const float* values, int count);
  void (*op_set_attr_string_list)(TfeOp*, const char* attr, const void* const* values,
                                  const size_t* lengths, int count);
  void (*op_set_attr_type_list)(TfeOp*, const char* attr, const TfDataType* values, int count);
  void (*op_add_input_list)(TfeOp*, TfeTensorHandle** inputs, int count, TfStatus*);
  void (*op_set_attr_shape)(TfeOp*, const char* attr, const int64_t* dims, int num_dims, TfStatus*);
  int (*num_dims)(const TfTensor*);
  int64_t (*dim)(const TfTensor*, int index);

  // A CPU kernel plugin (cpu_kernel_plugin.h): which kernels the op registry holds for an op,
  // as a serialized KernelList, so a process with the plugin can be told from one without.
  TfBuffer* (*registered_kernels_for_op)(const char* op_name, TfStatus*);
  void (*delete_buffer)(TfBuffer*);

  // Model graphs (model_graphs.h): a TF_Graph run by a TF_Session, so TensorFlow's graph
  // optimizer, and a plugin's own (TF_InitGraph), rewrite it before it runs.
  TfGraph* (*new_graph)();
  void (*delete_graph)(TfGraph*);
  TfOperationDescription* (*new_operation)(TfGraph*, const char* op_type, const char* name);
  void (*set_device)(TfOperationDescription*, const char* device);
  void (*add_input)(TfOperationDescription*, TfOutput input);
  void (*set_attr_type)(TfOperationDescription*, const char* attr, TfDataType);
  void (*set_attr_int)(TfOperationDescription*, const char* attr, int64_t);
  void (*set_attr_float)(TfOperationDescription*, const char* attr, float);
  void (*set_attr_bool)(TfOperationDescription*, const char* attr, unsigned char);
  void (*set_attr_string)(TfOperationDescription*, const char* attr, const void* value,
                          size_t length);
  void (*set_attr_int_list)(TfOperationDescription*, const char* attr, const int64_t* values,
                            int count);
  void (*set_attr_float_list)(TfOperationDescription*, const char* attr, const float* values,
                              int count);
  void (*set_attr_string_list)(TfOperationDescription*, const char* attr, const void* const* values,
                               const size_t* lengths, int count);
  void (*set_attr_type_list)(TfOperationDescription*, const char* attr, const TfDataType* values,
                             int count);
  void (*set_attr_shape)(TfOperationDescription*, const char* attr, const int64_t* dims,
                         int num_dims);
  TfOperation* (*finish_operation)(TfOperationDescription*, TfStatus*);
  TfSessionOptions* (*new_session_options)();
  void (*delete_session_options)(TfSessionOptions*);
  TfSession* (*new_session)(TfGraph*, const TfSessionOptions*, TfStatus*);
  void (*close_session)(TfSession*, TfStatus*);
  void (*delete_session)(TfSession*, TfStatus*);
  void (*session_run)(TfSession*, const TfBuffer* run_options, const TfOutput* inputs,
                      TfTensor* const* input_values, int input_count, const TfOutput* outputs,
                      TfTensor** output_values, int output_count, const TfOperation* const* targets,
                      int target_count, TfBuffer* run_metadata, TfStatus*);
  TfBuffer* (*new_buffer_from_string)(const void* proto, size_t length);
  TfBuffer* (*new_buffer)();
};

// The Python version whose runtime library stands in for the interpreter ("3.11"): from the
// package path (.../lib/pythonX.Y/site-packages/tensorflow), the same path with its links
// resolved (a linked package folder), or the wheel's tag beside it
// (tensorflow*.dist-info/WHEEL's "Tag: cp311-...", a `pip install --target DIR` layout).
// nullopt when none tells.
std::optional<std::string> PythonVersionOf(const std::string& tensorflow_dir);

// Loads TensorFlow from its installed package folder (site-packages/tensorflow) as
// `import tensorflow` does: the Python runtime library of that interpreter (the Python extension
// needs its symbols; another Python 3's when that one is not installed, Python is never
// initialized), libtensorflow_cc.so.2 (which pulls in libtensorflow_framework.so.2) and
// python/_pywrap_tensorflow_internal.so, in the scope TensorFlow's Python package loads them
// in; then resolves the table from libtensorflow_cc.so.2, or, up to TensorFlow 2.11, which has
// none, from the Python extension (the pre-2.12 route: a folder of the wheel's libraries, as
// specs/profiles/audit/install_libraries.py extracts them, is enough). Throws
// std::runtime_error naming what failed.
TensorFlowCApi LoadTensorFlow(const std::string& tensorflow_dir);

// TF_DataType values the driver uses.
inline constexpr TfDataType kFloat = 1;

}  // namespace tensorflow_driver
