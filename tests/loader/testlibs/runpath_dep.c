// Dependency found through the plugin's DT_RUNPATH/DT_RPATH ($ORIGIN/sub). It also defines
// TF_InitGraph, so dlsym on the plugin's handle finds an entry point the plugin itself lacks.
__attribute__((visibility("default"))) int loader_runpath_dep_value(void) { return 5; }
__attribute__((visibility("default"))) void TF_InitGraph(void* params, void* status) {
  (void)params;
  (void)status;
}
