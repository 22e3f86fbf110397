// The C++ half of the tensorflow_cxx_import variant: one call into TensorFlow's C++ API (a
// function libtensorflow_framework.so.2 exports), which leaves a mangled undefined import the
// mock core cannot satisfy.
namespace tsl::port {
int NumSchedulableCPUs();
}  // namespace tsl::port

extern "C" int load_defect_call_tensorflow_cxx() { return tsl::port::NumSchedulableCPUs(); }
