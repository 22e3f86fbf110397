// The models tier's rows of the op coverage table, from the model checks' results alone (so a
// report read back from JSON gives them again): "model.<name>.<dtype>" and the list of the
// model's ops with their registration, which the tier writes as "MatMul (registered), Conv2D
// (missing)" in a passing check's `ops` detail and at the end of a not_supported reason (an op
// updating variables under a core without the variable C API: "(registered; no variable C API)").
#include "report/op_coverage.h"

namespace conformance {
namespace {

constexpr std::string_view kModelPrefix = "model.";
constexpr std::string_view kOpsInReason = "(the model's ops: ";
constexpr std::string_view kPluginLacksAnOp = "the plugin has no ";

// "MatMul (registered), Conv2D (missing)" -> its ops; empty when the text is not such a list.
std::vector<ModelOp> ParseOps(std::string_view text) {
  std::vector<ModelOp> ops;
  while (!text.empty()) {
    const std::size_t end = text.find(", ");
    const std::string_view item = text.substr(0, end);
    const std::size_t open = item.rfind(" (");
    if (open == std::string_view::npos) return {};
    const std::string_view state = item.substr(open);
    // "registered; no variable C API": registered, its kernel not runnable under the core.
    const bool registered = state == " (registered)" || state == " (registered; no variable C API)";
    if (!registered && state != " (missing)") return {};
    ops.push_back({std::string(item.substr(0, open)), registered});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 2);
  }
  return ops;
}

std::vector<ModelOp> OpsOf(const CheckResult& result) {
  if (auto it = result.details.find("ops"); it != result.details.end()) return ParseOps(it->second);
  const std::string_view message = result.message;
  const std::size_t start = message.rfind(kOpsInReason);
  if (start == std::string_view::npos || !message.ends_with(')')) return {};
  const std::size_t from = start + kOpsInReason.size();
  return ParseOps(message.substr(from, message.size() - 1 - from));
}

}  // namespace

std::vector<ModelCoverage> BuildModelCoverage(const std::vector<CheckResult>& results) {
  std::vector<ModelCoverage> rows;
  for (const CheckResult& result : results) {
    std::string_view id = result.id;
    if (!id.starts_with(kModelPrefix)) continue;
    id.remove_prefix(kModelPrefix.size());
    // "<name>.<dtype>" only: the properties ("<name>.<dtype>.no_leaks") are not rows.
    const std::size_t dot = id.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == id.size() ||
        id.find('.', dot + 1) != std::string_view::npos)
      continue;
    ModelCoverage row;
    row.model = std::string(id.substr(0, dot));
    row.dtype = std::string(id.substr(dot + 1));
    row.check = result.id;
    row.ops = OpsOf(result);
    row.state = CellStateOf(result);
    // Not registered: the plugin lacks one of the model's ops; not run: the model cannot run
    // here for another reason (a core without the variable C API).
    if (result.outcome == Outcome::kNotSupported) {
      row.state = result.message.starts_with(kPluginLacksAnOp) ? CellState::kNotRegistered
                                                               : CellState::kNotRun;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace conformance
