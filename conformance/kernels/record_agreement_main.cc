// record_agreement CASES OTHER: judges another recording of the record's cases (record.py
// --out OTHER, on the same or another TensorFlow wheel) against the committed record, exactly as
// the kernel tier judges a plugin's results: the other recording stands in the plugin's place.
// TensorFlow's own CPU run again is a plugin TensorFlow runs correctly, so every cell it fails is
// a case the record cannot judge (an undefined output, a nondeterministic kernel); recorded on an
// older wheel, the failures are the cells whose meaning changed between the two releases.
// CASES is record_case_dump's output. Prints one line per failing cell and a summary as JSON.
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "kernels/borrowed_cells.h"
#include "kernels/recorded_oracle.h"
#include "kernels/tensorflow_cpu_oracle.h"
#include "model/outcome.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: record_agreement CASES OTHER\n"
    "Judges the recording in OTHER (a folder holding <release>/<Op>.json.gz) against the\n"
    "committed record, as the kernel tier judges a plugin; CASES is record_case_dump's output.\n";

// One op's judgement: the other recording's results as the plugin's.
json JudgeOp(const json& cases, kernels::RecordedOp& committed, kernels::RecordedOp& other,
             std::map<std::string, std::unique_ptr<kernels::RecordedOp>>& sources,
             const std::string& other_directory) {
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
        base = std::make_unique<kernels::RecordedOp>(kernels::RecordDirectory(), source_op);
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
    json entry = {{"id", kernel_case.value("id", "")},
                  {"shape_index", kernel_case.at("shape_index")},
                  {"cpu", kernels::ResultFor(kernel_case, want.cpu)}};
    if (!kernel_case.value("companion", false))
      entry["plugin"] = kernels::ResultFor(kernel_case, got.cpu);
    ran.push_back(std::move(entry));
  }
  const kernels::CpuOracleJudgement judgement = kernels::JudgeGeneratedCells(
      {{"cases", cases}}, ran, {"in the other recording", "the committed record"});
  json failures = json::array();
  for (const CheckResult& result : judgement.generated) {
    if (IsFailure(result.outcome)) failures.push_back({{"id", result.id}, {"why", result.message}});
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream in(argv[1]);
  const json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded() || !dump.contains("cases")) {
    std::cerr << "record_agreement: " << argv[1] << " is not record_case_dump's output\n";
    return 2;
  }
  const std::string other_directory = argv[2];
  std::map<std::string, json> by_op;
  for (const json& kernel_case : dump["cases"])
    by_op[kernel_case.value("op", "")].push_back(kernel_case);
  std::map<std::string, std::unique_ptr<kernels::RecordedOp>> sources;
  json summary = {{"ops", by_op.size()}, {"failing_cells", 0}, {"failing_ops", json::array()}};
  for (const auto& [op, cases] : by_op) {
    kernels::RecordedOp committed(kernels::RecordDirectory(), op);
    kernels::RecordedOp other(other_directory, op);
    const json failures = JudgeOp(cases, committed, other, sources, other_directory);
    if (failures.empty()) continue;
    summary["failing_ops"].push_back(op);
    summary["failing_cells"] =
        summary["failing_cells"].get<int>() + static_cast<int>(failures.size());
    for (const json& failure : failures)
      std::cout << failure["id"].get<std::string>() << ": " << failure["why"].get<std::string>()
                << '\n';
  }
  std::cout << summary.dump() << '\n';
  return 0;
}
