/* Imports the one TensorFlow C API function GEN_RELEASE_IMPORT names (tests/generations/
 * CMakeLists.txt), a function the release audit's facts show first in one release, without calling
 * it: the import alone decides whether a core loads the plugin (dlopen RTLD_NOW binds it), so every
 * profile before that release refuses the plugin naming it, and that release's profile loads it.
 * No TensorFlow header is included: the name's own signature does not matter to the import. */
extern void GEN_RELEASE_IMPORT(void);

__attribute__((visibility("default"))) void (*volatile gen_release_import)(void) =
    GEN_RELEASE_IMPORT;
