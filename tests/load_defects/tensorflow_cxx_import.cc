// The C++ half of the tensorflow_cxx_import variant: one call into TensorFlow's C++ API (a
// function libtensorflow_framework.so.2 exports), which leaves a mangled undefined import the
// mock core cannot satisfy.
namespace tsl::port {
int NumSchedulableCPUs();
}  // namespace tsl::port

#if defined(DEFECT_FOREIGN_CXX_IMPORT)
// A vendor runtime's function the build forgot to link (Vulten's glslang::InitThread() was one):
// no TensorFlow library exports a symbol in this namespace, so no release's dlopen binds it.
namespace vendor_runtime {
int InitThread();
}  // namespace vendor_runtime
#endif

extern "C" int load_defect_call_tensorflow_cxx() {
#if defined(DEFECT_FOREIGN_CXX_IMPORT)
  if (vendor_runtime::InitThread() != 0) return -1;
#endif
  return tsl::port::NumSchedulableCPUs();
}
