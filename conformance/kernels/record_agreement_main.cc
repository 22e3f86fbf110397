// record_agreement CASES OTHER: judges another recording of the record's cases (record.py
// --out OTHER, on the same or another TensorFlow wheel) against the committed record, exactly as
// the kernel tier judges a plugin's results: the other recording stands in the plugin's place.
// TensorFlow's own CPU run again is a plugin TensorFlow runs correctly, so every cell it fails is
// a case the record cannot judge (an undefined output, a nondeterministic kernel); recorded on an
// older wheel, the failures are the cells whose meaning changed between the two releases.
// CASES is record_case_dump's output. Prints one line per failing cell and a summary as JSON,
// whose `failing` names each cell and whether the other recording's CPU computed it otherwise
// ("values") or refused a case the committed record computed ("refused": a dtype or input that
// release lacks). specs/ops/record/overlay.py makes a release's overlay of the "values" cells.
// --release R: the committed record as a plugin built for R is judged by it (R's overlay).
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/borrowed_cells.h"
#include "kernels/recorded_oracle.h"
#include "kernels/tensorflow_cpu_oracle.h"
#include "model/outcome.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: record_agreement [--release R] CASES OTHER\n"
    "Judges the recording in OTHER (a folder holding <release>/<Op>.json.gz) against the\n"
    "committed record, as the kernel tier judges a plugin; CASES is record_case_dump's output.\n"
    "--release R: the committed record with R's overlay (specs/ops/record/R/), as it judges a\n"
    "plugin built for R.\n";

// The ids of the cells where the other recording refused a case the committed one computed.
using RefusedCells = std::set<std::string>;

// The dtype of the cell `id` names, read from its first case.
std::string DtypeOf(const json& cases, const std::string& id) {
  for (const json& kernel_case : cases)
    if (kernel_case.value("id", "") == id) return kernel_case.value("dtype", "");
  return "";
}

// One op's judgement: the other recording's results as the plugin's.
json JudgeOp(const json& cases, kernels::RecordedOp& committed, kernels::RecordedOp& other,
             std::map<std::string, std::unique_ptr<kernels::RecordedOp>>& sources,
             const std::string& other_directory, const std::string& release) {
  RefusedCells refused;
  json ran = json::array();
  for (const json& kernel_case : cases) {
    const json& recorded_as = kernels::RecordedAs(kernel_case);
    const std::string op = kernel_case.value("op", "");
    const std::string source_op = recorded_as.value("op", op);
    kernels::RecordedOp* expected = &committed;
    kernels::RecordedOp* actual = &other;
    if (source_op != op) {
      auto& base = sources["committed " + source_op];
      if (!base)
        base =
            std::make_unique<kernels::RecordedOp>(kernels::RecordDirectory(), source_op, release);
      auto& again = sources["other " + source_op];
      if (!again) again = std::make_unique<kernels::RecordedOp>(other_directory, source_op);
      expected = base.get();
      actual = again.get();
    }
    const kernels::RecordedCase want = expected->Find(recorded_as);
    const kernels::RecordedCase got = actual->Find(recorded_as);
    if (want.kind != kernels::RecordedCase::Kind::kResult ||
        got.kind != kernels::RecordedCase::Kind::kResult)
      continue;
    if (got.cpu.contains("error") && !want.cpu.contains("error"))
      refused.insert(kernel_case.value("id", ""));
    json entry = kernels::RecordedExpectations(kernel_case, recorded_as, want);
    entry["id"] = kernel_case.value("id", "");
    entry["shape_index"] = kernel_case.at("shape_index");
    if (!kernel_case.value("companion", false))
      entry["plugin"] = kernels::ResultFor(kernel_case, got.cpu);
    ran.push_back(std::move(entry));
  }
  const kernels::CpuOracleJudgement judgement = kernels::JudgeGeneratedCells(
      {{"cases", cases}}, ran, {"in the other recording", "the committed record"});
  json failures = json::array();
  for (const CheckResult& result : judgement.generated) {
    if (!IsFailure(result.outcome)) continue;
    failures.push_back({{"id", result.id},
                        {"dtype", DtypeOf(cases, result.id)},
                        {"kind", refused.contains(result.id) ? "refused" : "values"},
                        {"why", result.message}});
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  std::string release = kernels::kRecordedRelease;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--release" && i + 1 < argc) {
      release = argv[++i];
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.size() != 2) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream in(paths[0]);
  const json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded() || !dump.contains("cases")) {
    std::cerr << "record_agreement: " << paths[0] << " is not record_case_dump's output\n";
    return 2;
  }
  const std::string& other_directory = paths[1];
  std::map<std::string, json> by_op;
  for (const json& kernel_case : dump["cases"])
    by_op[kernel_case.value("op", "")].push_back(kernel_case);
  std::map<std::string, std::unique_ptr<kernels::RecordedOp>> sources;
  json summary = {{"ops", by_op.size()},
                  {"release", release},
                  {"failing_cells", 0},
                  {"failing_ops", json::array()},
                  {"failing", json::array()}};
  for (const auto& [op, cases] : by_op) {
    kernels::RecordedOp committed(kernels::RecordDirectory(), op, release);
    kernels::RecordedOp other(other_directory, op);
    const json failures = JudgeOp(cases, committed, other, sources, other_directory, release);
    if (failures.empty()) continue;
    summary["failing_ops"].push_back(op);
    summary["failing_cells"] =
        summary["failing_cells"].get<int>() + static_cast<int>(failures.size());
    for (const json& failure : failures) {
      std::cout << failure["id"].get<std::string>() << ": " << failure["why"].get<std::string>()
                << '\n';
      summary["failing"].push_back({{"id", failure["id"]},
                                    {"op", op},
                                    {"dtype", failure["dtype"]},
                                    {"kind", failure["kind"]}});
    }
  }
  std::cout << summary.dump() << '\n';
  return 0;
}
