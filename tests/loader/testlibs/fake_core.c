// Stands in for the mock TensorFlow core in import-audit tests: exports TF_Bar, and defines
// TF_Hidden with hidden visibility, which must not count as exported.
__attribute__((visibility("default"))) int TF_Bar(int value) { return value + 1; }
__attribute__((visibility("hidden"))) int TF_Hidden(void) { return 7; }
int loader_fake_core_uses_hidden(void) { return TF_Hidden(); }
