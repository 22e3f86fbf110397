#pragma once
// A TensorFlow core generation the harness emulates (specs/profiles/*.yaml).
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "validate/abi_layout.h"

namespace conformance::validate {

enum class MessageStyle {
  kAbsl,    // newest core: "Expected initialized `S` structure with ..."
  kLegacy,  // older cores, and grappler to this day: "struct_size field in S must be set to M."
};

struct Profile {
  std::string name;
  std::string description;
  std::string generation;  // label of the header generation the core was built with
  std::string headers;     // the same in plain release numbers ("TensorFlow 2.7 and 2.8")
  const AbiLayout* layout = nullptr;
  MessageStyle message_style = MessageStyle::kAbsl;
  std::vector<std::string> platform_fns_required;     // in core's validation order
  std::vector<std::string> stream_executor_required;  // in core's validation order
  bool calls_timer_fns = false;
  // TensorFlow refuses (NOT_FOUND, and aborts) a plugin exporting neither SE_InitPlugin nor
  // TF_InitGraph (`device_or_graph: required`; measured in 2.10.1, not in 2.15.1 or 2.21.0).
  bool device_or_graph_required = false;
  // How that refusal's message renders the two lookups: each dlerror text alone (false, 2.7 on)
  // or each lookup's whole status, "Not found: " before its dlerror text (true:
  // `device_or_graph_message: statuses`, recorded on 2.5.3 and 2.6.5).
  bool device_or_graph_message_statuses = false;
  // TensorFlow refuses a plugin without TF_InitKernel, and runs the graph module before the
  // kernel module (`kernel_module: required`; 2.10.1 measured).
  bool kernel_module_required = false;
  // Whether a failing profiler module (TF_InitProfiler's status, or TensorFlow's checks of what
  // it filled) makes TensorFlow refuse the plugin (`profiler_module: refuses`, 2.12 on; 2.15.1,
  // 2.21.0 measured). `logged` (2.7 to 2.11) and `not_called` (2.5, 2.6) load it: the profiler
  // checks still run and fail, but count in no TensorFlow load verdict.
  bool profiler_module_refuses = true;
  // Whether the release's python/_pywrap_tensorflow_internal.so has a DT_SONAME
  // (`pywrap_soname: false`: 2.19.1, 2.20.0, 2.21.0 have none; 2.5.3 to 2.18.1 have
  // `_pywrap_tensorflow_internal.so`, readelf -d on each wheel). Python opens that library by its
  // full path, so without a SONAME a plugin's DT_NEEDED on it does not match the loaded library
  // and is searched on disk: found only through the plugin's own RPATH/RUNPATH.
  bool pywrap_soname = true;
  // Whether `import tensorflow` makes its libraries' symbols global (`libraries_global: true`,
  // derived from the release's pywrap_dlopen_global_flags.py: 2.19.1 to 2.21.0). Where it does
  // not (2.5.3 to 2.18.1: RTLD_LOCAL), a plugin binds to TensorFlow's C API only through a
  // TensorFlow library it links: one linking none of them finds no TF_* function at all.
  bool libraries_global = false;
  // What TensorFlow requires of the PJRT_Api a NextPluggableDevice plugin's GetPjrtApi returns
  // (`pjrt_api:`, measured with a probe plugin; absent: not measured, nothing checked).
  // struct_size: the exact size it accepts (2.15.1: 792, a larger or smaller one is refused);
  // 0: not checked (2.21.0 accepts 64 to 2000). major/min_minor: the API version it accepts
  // (2.21.0: major 0, minor 29 or more; 2.15.1 checks neither). framework: its own version,
  // as its messages print it ("0.34"; empty: 2.13.1, whose size message names none, and a
  // min_minor rule, whose messages name none). `pjrt_api:
  // none`: the release has no NextPluggableDevice loader (it loads npd_init_fails, whose
  // TFNPD_InitPlugin fails: recorded outcomes, profile_fields.py): the NPD checks still run but
  // count in no TensorFlow load verdict.
  struct PjrtApiRule {
    bool measured = false;
    bool loader = true;
    std::size_t struct_size = 0;
    int major = -1;      // -1: not checked
    int min_minor = -1;  // -1: not checked
    // The one minor version accepted with `major` (`minor:`, 2.16.2 and 2.17.1 recorded: they
    // refuse 0.28 and 0.70 alike, "Mismatched PJRT plugin PJRT API version (0.70) and framework
    // PJRT API version 0.40)."); -1: not checked.
    int exact_minor = -1;
    std::string framework;
  } pjrt_api;
  std::string releases;  // the TensorFlow releases this core stands for, e.g. "2.7-2.8"
  // TensorFlow C API symbols (TF_*, SE_*, TP_*, TFNPD_*) this core exports to plugins
  // (specs/profiles/exports/*.txt): the import audit fails a plugin importing any other.
  std::set<std::string, std::less<>> exports;
  // For a profile measured on a wheel: the functions the mock core exports (for other profiles)
  // that this release does not export to plugins (specs/profiles/exports/*_not_exported.txt,
  // with the measurement). The import audit refuses them; exports + not_exported = the mock
  // core's exports (tests/generations/profile_exports_test.cc).
  std::set<std::string, std::less<>> not_exported;
  // Before 2.12 (`pywrap_exports`, exports/*_pywrap.txt): what a plugin that links
  // _pywrap_tensorflow_internal.so itself (DT_NEEDED, as DirectML does) binds to beyond
  // `exports`; RTLD_LOCAL hides that library only from plugins that do not link it.
  std::set<std::string, std::less<>> pywrap_exports;
  // The TensorFlow release whose op registry (specs/ops/registry) kernel registrations are
  // judged against, e.g. "2.21.0".
  std::string op_registry;
  // The release whose CPU values judge the kernel tier's generated cells (`kernel_values:`): its
  // overlay of the record (specs/ops/record/<release>/) replaces the cells where that release's
  // CPU computes otherwise than 2.21.0's; 2.21.0 is the record itself.
  std::string kernel_values;
};

// What a library with these DT_NEEDED entries can bind to under `profile`: its exports, and its
// pywrap_exports when one of them is _pywrap_tensorflow_internal.so.
std::set<std::string, std::less<>> ReachableExports(const Profile& profile,
                                                    const std::vector<std::string>& needed);

// A profile's `releases` in words, for sentences: "2.19-2.21" -> "2.19 to 2.21", "2.16+" ->
// "2.16 and later", "2.10" -> "2.10". `*several` says whether it names more than one release
// (the verb agrees: "TensorFlow 2.19 to 2.21 export ...", "TensorFlow 2.10 exports ...").
std::string ReleasesInWords(std::string_view releases, bool* several = nullptr);

// The profile named `name` ("newest", "tf2.10", ...); nullptr if there is none.
const Profile* FindProfile(std::string_view name);
const std::vector<Profile>& AllProfiles();  // newest first

// Header generations plugins may have been built against: one per distinct golden
// stream_executor.h layout among the profiles, newest first.
struct HeaderGeneration {
  std::string label;
  std::string headers;  // plain release numbers, for sentences a vendor acts on
  const AbiLayout* layout = nullptr;
};
const std::vector<HeaderGeneration>& HeaderGenerations();

}  // namespace conformance::validate
