// The ways a vendor loses entry points: SE_InitPlugin built with hidden visibility,
// TF_InitGraph made static, TF_InitProfiler defined without extern "C" (exported, but under a
// mangled name). TF_InitKernel is exported correctly and must not be reported.
extern "C" {
__attribute__((visibility("hidden"))) void SE_InitPlugin(void*, void*) {}
__attribute__((used)) static void TF_InitGraph(void*, void*) {}
__attribute__((visibility("default"))) void TF_InitKernel() {}
}
__attribute__((visibility("default"))) void TF_InitProfiler(void*, void*) {}
