#pragma once
// A deliberately misbehaving "plugin" library for the isolation tests. It lives in its own
// shared object so the tests can check that backtraces name functions (static ones included)
// and source lines inside a module other than the harness.
#ifdef __cplusplus
extern "C" {
#endif

void crashy_segfault(void);  // writes through a null pointer
void crashy_abort(void);
void crashy_raise_fpe(void);
void crashy_exit(int status);
void crashy_hang(void);                // spins forever
int crashy_overflow_stack(int depth);  // unbounded recursion

#ifdef __cplusplus
}
#endif
