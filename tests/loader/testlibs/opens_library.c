/* A library that calls dlopen and dlerror itself, as a plugin opening its own backend does: its
 * calls bind through the global scope, so they reach the executable's exported ones (the dlopen
 * gate's interposer, harness/loader/dlopen_gate.h) before libc's. */
#include <dlfcn.h>

void* opens_library_open(const char* path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }

const char* opens_library_error(void) { return dlerror(); }
