// A plugin whose only purpose is its DT_NEEDED entries (from the stubs it links against).
extern int loader_stub_symbol(void);
__attribute__((visibility("default"))) int loader_needs_stub(void) { return loader_stub_symbol(); }
