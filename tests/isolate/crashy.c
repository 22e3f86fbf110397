#include "crashy.h"

#include <signal.h>
#include <stdlib.h>

// Keeps the functions whole and under their own names (no inlining, no ".isra" clones), so the
// backtrace the test expects is the one the source shows.
#if defined(__clang__)
#define CRASHY_KEEP __attribute__((noinline))
#else
#define CRASHY_KEEP __attribute__((noinline, noipa))
#endif

// Static so the test proves the symbolizer reads .symtab, not just the exported symbols.
static CRASHY_KEEP void write_through_null(int* target) {
  *target = 42;  // CRASHY_SEGFAULT_LINE
}

void crashy_segfault(void) {
  int* volatile target = NULL;  // volatile: the compiler cannot see the null and trap early
  write_through_null(target);
}

void crashy_abort(void) { abort(); }

void crashy_raise_fpe(void) { raise(SIGFPE); }

void crashy_exit(int status) { exit(status); }

void crashy_hang(void) {
  volatile unsigned long spins = 0;
  for (;;) ++spins;
}

static CRASHY_KEEP int recurse_without_end(volatile char* previous, int depth) {
  if (depth < 0) return 0;  // never true; keeps the recursion from looking endless to -Wall
  volatile char frame[256];
  frame[0] = previous != NULL ? previous[0] : (char)depth;
  return recurse_without_end(frame, depth + 1) + frame[0];
}

int crashy_overflow_stack(int depth) { return recurse_without_end(NULL, depth); }
