// A plugin built on the C API that imports what C-API plugins really import besides it
// (docs/tensorflow/plugin_imports.md): TF_Log and TF_VLog, the eager functions DirectML's kernels
// use, Python's PyRun_SimpleStringFlags (ITEX's CPU backends) and TensorFlow 2.10's
// tensorflow::internal::LogMessageFatal (DirectML, through TensorFlow's logging macros). Linked
// against _pywrap_tensorflow_internal.so, so its imports carry the version node `tensorflow`, as
// a plugin linked against TensorFlow's own library does. SE_InitPlugin uses each the way those
// plugins do, fails with the first surprise, then registers the reference plugin's device.
//   HOSTED_LOG_FATAL: SE_InitPlugin ends in a fatal log (the plugin's own CHECK failure): the
//   suite must report the abort with its message.
#include <sstream>

#include "../support/reference_init.h"
#include "tensorflow/c/logging.h"
#include "tensorflow/c/tf_status.h"

// TensorFlow 2.10's fatal log message, as its headers declare it to plugins: a string stream
// whose destructor logs and aborts (core/log_message_fatal.cc has the layout).
namespace tensorflow::internal {
class LogMessage : public std::ostringstream {
 public:
  LogMessage(const char* file, int line, int severity);
  ~LogMessage() override;

 private:
  const char* file_;
  int line_;
  int severity_;
};
class LogMessageFatal : public LogMessage {
 public:
  LogMessageFatal(const char* file, int line);
  [[noreturn]] ~LogMessageFatal() override;
};
}  // namespace tensorflow::internal

extern "C" {
struct PyCompilerFlags;
int PyRun_SimpleStringFlags(const char* command, PyCompilerFlags* flags);
typedef struct TFE_ContextOptions TFE_ContextOptions;
typedef struct TFE_Context TFE_Context;
TFE_ContextOptions* TFE_NewContextOptions(void);
void TFE_DeleteContextOptions(TFE_ContextOptions* options);
TFE_Context* TFE_NewContext(const TFE_ContextOptions* options, TF_Status* status);
}

namespace {

bool Fail(TF_Status* status, const char* what) {
  TF_SetStatus(status, TF_INTERNAL, what);
  return false;
}

bool UseHostedImports(TF_Status* status) {
  TF_Log(TF_INFO, "hosted_imports: TF_Log works (%d)", 1);
  TF_VLog(1, "hosted_imports: shown only with TF_CPP_MAX_VLOG_LEVEL >= 1");
  if (PyRun_SimpleStringFlags("import sys\nprint('hosted_imports')\n", nullptr) != 0)
    return Fail(status, "hosted_imports: PyRun_SimpleStringFlags did not return 0");
  TFE_ContextOptions* options = TFE_NewContextOptions();
  if (options == nullptr) return Fail(status, "hosted_imports: TFE_NewContextOptions is NULL");
  TF_Status* eager = TF_NewStatus();
  TFE_Context* context = TFE_NewContext(options, eager);
  const bool unimplemented = context == nullptr && TF_GetCode(eager) == TF_UNIMPLEMENTED;
  TF_DeleteStatus(eager);
  TFE_DeleteContextOptions(options);
  if (!unimplemented)
    return Fail(status, "hosted_imports: TFE_NewContext did not fail with UNIMPLEMENTED");
  return true;
}

}  // namespace

// A kernel module, even an empty one: TensorFlow 2.10 refuses a plugin without TF_InitKernel
// (load.modules.kernels, measured on 2.10.1), and this plugin stands for one that loads there.
extern "C" __attribute__((visibility("default"))) void TF_InitKernel() {}

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!UseHostedImports(status)) return;
#if defined(HOSTED_LOG_FATAL)
  tensorflow::internal::LogMessageFatal(__FILE__, __LINE__)
      << "Check failed: adapter != nullptr (the device is gone)";
#endif
  conformance::test_support::InitAsReferencePlugin(params, status, "hosted_imports");
}
