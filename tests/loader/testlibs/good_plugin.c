// A plugin whose entry points all resolve: the typed lookup is checked by calling them.
static int kernel_calls;
static int pjrt_api_stand_in;

__attribute__((visibility("default"))) void SE_InitPlugin(void* params, void* status) {
  *(int*)params = 42;
  *(int*)status = 0;
}
__attribute__((visibility("default"))) const void* GetPjrtApi(void) { return &pjrt_api_stand_in; }
__attribute__((visibility("default"))) void TF_InitKernel(void) { ++kernel_calls; }
__attribute__((visibility("default"))) int loader_good_plugin_kernel_calls(void) {
  return kernel_calls;
}
