#pragma once
// Files in memory (memfd) that a child process writes and its parent reads back whole:
// anonymous files, not pipes, since a child may write more than a pipe holds while nobody reads.
#include <string>

namespace tensorflow_driver {

// Which children see the file: a forked child only, or also a program it executes (posix_spawn),
// which then writes to the descriptor it inherits.
enum class MemoryFileScope { kForkedChild, kExecutedChild };

// A new empty file; throws std::runtime_error when the kernel refuses one.
int NewMemoryFile(const char* name, MemoryFileScope scope);

// Everything written to `fd` from its start; closes it.
std::string ReadAllAndClose(int fd);

}  // namespace tensorflow_driver
