extern int loader_runpath_dep_value(void);
__attribute__((visibility("default"))) int loader_runpath_plugin_value(void) {
  return loader_runpath_dep_value() + 1;
}
