#pragma once
// The compatibility matrix (--matrix): one row per TensorFlow generation the harness emulates,
// each made from one run of the load tier (and the runtime tier where TensorFlow loads the
// plugin) under that generation's profile. Rows are flat (strings, numbers, bools, arrays of
// strings) so the HTML report can render `matrix.rows` without knowing them.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "run/exit_code.h"
#include "run/run_report.h"

namespace conformance {

// A generation as the matrix names it (validate/profile.h has the full profile).
struct MatrixGeneration {
  std::string profile;     // --profile name, e.g. "tf2.7"
  std::string releases;    // TensorFlow releases it stands for, e.g. "2.7-2.8"
  std::string generation;  // header-generation label, as load.se.header_generation reports it
};

struct MatrixRow {
  std::string profile;
  std::string tensorflow;  // releases
  bool loads = false;      // TensorFlow's verdict: it would load the plugin
  // Why not, or what else is wrong at load time, in one sentence; "loads" when nothing is.
  std::string why;
  std::vector<std::string> missing_symbols;  // imports this generation does not export
  std::string header_generation;             // decoded from the plugin; "" when unknown
  // The plugin was built against this generation's headers: its own rows decide the exit code.
  bool built_for = false;
  std::string verdict;  // "conformant", "not conformant" or "not loaded"
  std::string runtime;  // "12 pass, 0 fail" (and other outcomes when present), or "not run"
  int runtime_pass = 0;
  int runtime_fail = 0;  // fail, crash, timeout and unexpected_pass
  // Other tiers the row ran beyond load and runtime (--tier kernels, ...): tier -> the same
  // summary as `runtime`, in the order they ran.
  std::vector<std::pair<std::string, std::string>> other_tiers;
  ExitCode exit_code = ExitCode::kConformant;
};

MatrixRow MakeMatrixRow(const MatrixGeneration& generation, const RunReport& report);

// Marks the rows of the releases the plugin was built for: those of the header generation it
// was built against (decoded in any row; every row decodes the same plugin), narrowed to the
// ones exporting every symbol it imports (headers of 2.10 and 2.16 share a layout; a plugin
// calling a getter 2.16 added was built for 2.16). When the imports exclude them all, all of
// that generation's rows count (so the failure shows). With no generation decoded (no
// StreamExecutor module, or it never loaded), the newest row stands in: it is the TensorFlow
// users install today.
void MarkBuiltFor(std::vector<MatrixRow>& rows, const std::vector<MatrixGeneration>& generations);

// The worst exit code among the rows marked built_for (3 beats 1 beats 0).
ExitCode MatrixExitCode(const std::vector<MatrixRow>& rows);

nlohmann::json MatrixJson(const std::vector<MatrixRow>& rows);
void WriteMatrixTable(std::ostream& out, const std::string& plugin,
                      const std::vector<MatrixRow>& rows);

}  // namespace conformance
