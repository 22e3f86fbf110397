// Compiled but never linked: an ET_REL object file handed over instead of a shared library.
int loader_object_file_symbol(void) { return 1; }
