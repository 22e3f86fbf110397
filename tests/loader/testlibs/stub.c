// A library that exists only to be linked against: what matters is its DT_SONAME, set by the
// build, which becomes the DT_NEEDED entry of whatever links it.
int loader_stub_symbol(void) { return 0; }
