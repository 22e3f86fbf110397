#include "catalogue/generated_checks.h"

#include <string_view>
#include <utility>

namespace conformance {
namespace {

constexpr std::string_view kPrefix = "kernel.";
constexpr std::string_view kSuffix = ".generated";
constexpr std::string_view kModelPrefix = "model.";
constexpr std::string_view kInstalledSuffix = ".installed";
constexpr std::string_view kInTensorFlowSuffix = ".in_tensorflow";

CheckEntry GeneratedEntry(std::string id) {
  return CheckEntry{
      std::move(id),
      "kernel",
      Origin::kStricter,
      "Inside the installed TensorFlow, the plugin's kernel computes what TensorFlow's own CPU "
      "kernel computes for cases generated from the op's definition (ranks 0 to 4 with an "
      "empty dimension, seeded values, the dtype's special values, attr defaults and legal "
      "non-default values), within the dtype's tolerance or the declared precision.",
      "TensorFlow places the op on the plugin's device and uses whatever the plugin's kernel "
      "writes: wrong values, shapes or dtypes flow silently into the rest of the model.",
      "Compute the op as TensorFlow's CPU kernel does for every input its definition allows; "
      "the failure names the generated case (its shape or attr values) and the first wrong "
      "element.",
      ConsequenceKind::kWrongData,
      "wrong data: the values the kernel writes flow silently into the rest of the model."};
}

CheckEntry InstalledModelEntry(std::string id) {
  return CheckEntry{
      std::move(id),
      "model",
      Origin::kStricter,
      "Inside the installed TensorFlow, the model run as a graph by a session (so TensorFlow's "
      "graph optimizer and the plugin's own rewrite it first) with the plugin loaded gives the "
      "outputs the same graph gives in a process without the plugin, step by step, within the "
      "model's tolerance.",
      "A session's graph is what users' tf.function and SavedModel code runs: the plugin's "
      "graph optimizer replaces standard ops with its own, whose kernels then compute the "
      "model; eager op-by-op cases never reach them.",
      "The failure names the model, the step and the first output that differs: fix the "
      "rewrite or the kernel of the plugin's op that replaced the nodes producing it.",
      ConsequenceKind::kWrongData,
      "wrong data: the model's outputs differ from TensorFlow's own computation."};
}

// A kernel case's "<case id>.in_tensorflow", worded as kernels.yaml words a built-in case's;
// the case's own entry gives what TensorFlow does and the fix.
CheckEntry InTensorFlowEntry(std::string id, const CheckEntry& case_entry) {
  return CheckEntry{
      std::move(id),
      case_entry.tier,
      Origin::kStricter,
      "With --tensorflow, inside the installed TensorFlow: the plugin's kernel gives, for the "
      "case " +
          case_entry.id +
          ", what TensorFlow's own CPU kernel gives (same output dtypes "
          "and shapes, values within the case's tolerance, the same status).",
      case_entry.tensorflow,
      case_entry.fix,
      ConsequenceKind::kWrongData,
      "wrong data: the values the kernel writes flow silently into the rest of the model."};
}

}  // namespace

std::vector<CheckEntry> GeneratedCheckEntries(const std::vector<CheckResult>& results) {
  std::vector<CheckEntry> entries;
  for (const CheckResult& result : results) {
    const std::string_view id = result.id;
    if (!id.starts_with(kPrefix) || !id.ends_with(kSuffix) || FindCheck(id) != nullptr) continue;
    entries.push_back(GeneratedEntry(result.id));
  }
  return entries;
}

std::vector<CheckEntry> RecordedCheckEntries(const std::vector<std::string>& ids) {
  std::vector<CheckEntry> entries;
  for (const std::string& id : ids) {
    if (!id.starts_with(kPrefix) || !id.ends_with(kSuffix) || FindCheck(id) != nullptr) continue;
    entries.push_back(CheckEntry{
        id, "kernel", Origin::kStricter,
        "On the plugin's device, the plugin's kernel computes what TensorFlow's CPU kernel "
        "computed for cases generated from the op's definition (ranks 0 to 4 with an empty "
        "dimension, seeded values, the dtype's special values, attr defaults and legal "
        "non-default values), as the recorded TensorFlow oracle holds it, within the dtype's "
        "tolerance or the declared precision.",
        "TensorFlow places the op on the plugin's device and uses whatever the plugin's kernel "
        "writes: wrong values, shapes or dtypes flow silently into the rest of the model.",
        "Compute the op as TensorFlow's CPU kernel does for every input its definition allows; "
        "the failure names the generated case (its shape or attr values) and the first wrong "
        "element. --tensorflow judges the same cells inside the installed TensorFlow.",
        ConsequenceKind::kWrongData,
        "wrong data: the values the kernel writes flow silently into the rest of the model."});
  }
  return entries;
}

std::vector<CheckEntry> InstalledModelCheckEntries(const std::vector<CheckResult>& results) {
  std::vector<CheckEntry> entries;
  for (const CheckResult& result : results) {
    const std::string_view id = result.id;
    if (!id.starts_with(kModelPrefix) || !id.ends_with(kInstalledSuffix) ||
        FindCheck(id) != nullptr) {
      continue;
    }
    entries.push_back(InstalledModelEntry(result.id));
  }
  return entries;
}

std::optional<CheckEntry> RunTimeFamilyEntry(std::string_view id) {
  if (id.starts_with(kPrefix) && id.ends_with(kSuffix)) return GeneratedEntry(std::string(id));
  if (id.starts_with(kModelPrefix) && id.ends_with(kInstalledSuffix)) {
    return InstalledModelEntry(std::string(id));
  }
  if (id.ends_with(kInTensorFlowSuffix)) {
    const std::string_view case_id = id.substr(0, id.size() - kInTensorFlowSuffix.size());
    if (const CheckEntry* case_entry = FindCheck(case_id);
        case_entry != nullptr && case_id.starts_with(kPrefix)) {
      return InTensorFlowEntry(std::string(id), *case_entry);
    }
  }
  return std::nullopt;
}

const CheckEntry* FindCheckOrFamily(std::string_view id) {
  if (const CheckEntry* entry = FindCheck(id)) return entry;
  std::optional<CheckEntry> entry = RunTimeFamilyEntry(id);
  if (!entry) return nullptr;
  AddRunTimeChecks({std::move(*entry)});
  return FindCheck(id);
}

}  // namespace conformance
