#pragma once
// The child's last words: on a fatal signal, record the signal and a raw backtrace (pc,
// module, module base) into the shared CrashRecord, then die of the same signal so the parent
// sees the true cause. Symbolizing is left to the parent, which is healthy.
#include "isolate/child_state.h"

namespace conformance::isolate {

// Loads the unwinder (libgcc_s) now: its first use allocates and takes loader locks, which a
// dying process must not do. Done once in the parent; forked children inherit it loaded.
void PreloadUnwinder();

// Installs handlers for SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL on an alternate stack (so
// a stack overflow is reported too). Called in the child after fork(), which is after any
// sanitizer runtime installed its own handlers, so ours take precedence.
void InstallCrashHandlers(CrashRecord* record);

}  // namespace conformance::isolate
