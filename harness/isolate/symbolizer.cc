#include "isolate/symbolizer.h"

#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <utility>

#include "loader/cxx_imports.h"

namespace conformance::isolate {
namespace {

// Separate debug files are not searched: that path can reach out to debuginfod servers, and a
// conformance run must not stall on the network. Debug info inside the module is still used.
int NoSeparateDebugInfo(Dwfl_Module*, void**, const char*, Dwarf_Addr, const char*, const char*,
                        GElf_Word, char**) {
  return -1;
}

int NoElfLookup(Dwfl_Module*, void**, const char*, Dwarf_Addr, char**, Elf**) { return -1; }

std::string Basename(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Hex(std::uintptr_t value) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof(text), "0x%jx", static_cast<std::uintmax_t>(value));
  return text;
}

// The child was forked from this process without exec, so its main program is ours; the
// loader may only know it by a relative argv[0], which is useless from another directory.
struct MainProgram {
  std::uintptr_t base = 0;
  std::string path;
};

const MainProgram& ThisProgram() {
  static const MainProgram program = [] {
    MainProgram result;
    Dl_info info{};
    // NOLINTNEXTLINE(performance-no-int-to-ptr): getauxval gives the address as an integer.
    if (dladdr(reinterpret_cast<void*>(getauxval(AT_PHDR)), &info) != 0) {
      result.base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    }
    std::error_code error;
    result.path = std::filesystem::read_symlink("/proc/self/exe", error).string();
    return result;
  }();
  return program;
}

std::string FilePathOf(const RawFrame& frame) {
  const MainProgram& program = ThisProgram();
  if (frame.module_base != 0 && frame.module_base == program.base && !program.path.empty()) {
    return program.path;
  }
  return frame.module;
}

class DwflSession {
 public:
  DwflSession() {
    callbacks_.find_elf = NoElfLookup;
    callbacks_.find_debuginfo = NoSeparateDebugInfo;
    callbacks_.section_address = dwfl_offline_section_address;
    dwfl_ = dwfl_begin(&callbacks_);
  }
  ~DwflSession() {
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
  }
  DwflSession(const DwflSession&) = delete;
  DwflSession& operator=(const DwflSession&) = delete;

  Dwfl* get() const { return dwfl_; }

 private:
  Dwfl_Callbacks callbacks_{};
  Dwfl* dwfl_ = nullptr;
};

}  // namespace

std::vector<std::string> Symbolize(const std::vector<RawFrame>& frames, bool first_is_fault_pc) {
  DwflSession session;
  Dwfl* dwfl = session.get();

  // Modules are reported at the address the child had them at, so the raw pcs look up as is.
  if (dwfl != nullptr) {
    dwfl_report_begin(dwfl);
    std::set<std::pair<std::string, std::uintptr_t>> reported;
    for (const RawFrame& frame : frames) {
      const std::string path = FilePathOf(frame);
      if (path.empty() || frame.module_base == 0) continue;
      const bool inserted = reported.emplace(path, frame.module_base).second;
      // The vDSO and deleted files have a name but nothing to read.
      if (!inserted || access(path.c_str(), R_OK) != 0) continue;
      dwfl_report_elf(dwfl, path.c_str(), path.c_str(), -1, frame.module_base, false);
    }
    dwfl_report_end(dwfl, nullptr, nullptr);
  }

  std::vector<std::string> lines;
  lines.reserve(frames.size());
  // Deep recursion fills the whole backtrace with one frame; say so once instead.
  std::string previous;
  std::size_t repeats = 0;
  const auto flush_repeats = [&](std::size_t next_index) {
    if (repeats == 0) return;
    const std::size_t first = next_index - repeats;
    lines.push_back("#" + std::to_string(first) + "-#" + std::to_string(next_index - 1) +
                    " same as #" + std::to_string(first - 1) + " (" + std::to_string(repeats) +
                    " frames)");
    repeats = 0;
  };
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const RawFrame& frame = frames[i];
    const bool return_address = i > 0 || !first_is_fault_pc;
    const std::uintptr_t lookup = return_address && frame.pc > 0 ? frame.pc - 1 : frame.pc;
    std::string line;
    const std::string module_name = Basename(frame.module);

    Dwfl_Module* module = dwfl != nullptr ? dwfl_addrmodule(dwfl, lookup) : nullptr;
    const char* symbol = nullptr;
    GElf_Off symbol_offset = 0;
    if (module != nullptr) {
      GElf_Sym sym{};
      symbol =
          dwfl_module_addrinfo(module, lookup, &symbol_offset, &sym, nullptr, nullptr, nullptr);
    }
    if (symbol != nullptr) {
      line += module_name + ": " + loader::Demangle(symbol) + "+" +
              Hex(symbol_offset + (frame.pc - lookup));
    } else if (!module_name.empty() && frame.module_base != 0) {
      line += module_name + "+" + Hex(frame.pc - frame.module_base);
    } else {
      line += Hex(frame.pc);
    }
    if (module != nullptr) {
      if (Dwfl_Line* source = dwfl_module_getsrc(module, lookup)) {
        int line_number = 0;
        const char* file = dwfl_lineinfo(source, nullptr, &line_number, nullptr, nullptr, nullptr);
        if (file != nullptr && line_number > 0) {
          line += " (" + Basename(file) + ":" + std::to_string(line_number) + ")";
        }
      }
    }
    if (i > 0 && line == previous) {
      ++repeats;
      continue;
    }
    flush_repeats(i);
    previous = line;
    // Appended, not `"#" + std::to_string(i) + ...`: that trips GCC 12's -Wrestrict false
    // positive at -O3.
    std::string numbered = "#";
    numbered += std::to_string(i);
    numbered += ' ';
    numbered += line;
    lines.push_back(std::move(numbered));
  }
  flush_repeats(frames.size());
  return lines;
}

}  // namespace conformance::isolate
