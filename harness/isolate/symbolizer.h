#pragma once
// Turns a crashed child's raw frames into readable lines, in the parent:
//   "#0 libplugin.so: bad_function+0x12 (plugin.c:42)"
// Names come from the module's .symtab when it has one (static functions included), else from
// .dynsym; file:line from DWARF in the module itself. Only local files are read.
#include <cstdint>
#include <string>
#include <vector>

namespace conformance::isolate {

struct RawFrame {
  std::uintptr_t pc = 0;
  std::uintptr_t module_base = 0;  // 0 if unknown
  std::string module;              // path as the dynamic loader knows it; empty if unknown
};

// `first_is_fault_pc`: frame 0 is the interrupted instruction itself; every other frame is a
// return address and is looked up one byte earlier so it lands inside the call.
std::vector<std::string> Symbolize(const std::vector<RawFrame>& frames, bool first_is_fault_pc);

}  // namespace conformance::isolate
