#include "recorded_units.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalogue/generated_checks.h"
#include "kernels/borrowed_cells.h"
#include "kernels/case_from_json.h"
#include "kernels/case_json.h"
#include "kernels/generated_cases.h"
#include "kernels/kernel_scenario_set.h"
#include "kernels/kernel_target.h"
#include "kernels/plugin_op_listing.h"
#include "kernels/plugin_stand_ins.h"
#include "kernels/recorded_oracle.h"
#include "kernels/registered_kernels.h"
#include "kernels/string_values.h"
#include "kernels/tensorflow_cpu_oracle.h"
#include "ops/registry.h"
#include "random_units.h"
#include "runtime/profile_support.h"
#include "validate/check_log.h"
#include "validate/profile.h"
#include "validate/variable_updates.h"

namespace conformance {
namespace {

using nlohmann::json;
using validate::CheckLog;

// The release whose CPU values judge a plugin run under `profile_name` (the profile's
// `kernel_values`).
std::string KernelValuesRelease(const std::string& profile_name) {
  const validate::Profile* profile = validate::FindProfile(profile_name);
  return profile == nullptr ? std::string(kernels::kRecordedRelease) : profile->kernel_values;
}

// Who computed the recorded values: TensorFlow's CPU kernel of the op, or, for an op it has no
// kernel for, the stand-in the record names, so a vendor reads which computation disagreed.
// `release`: the release whose record judges the cells (an overlay's names its folder).
kernels::OracleWords RecordWords(const kernels::RecordedOp& record, const std::string& release) {
  std::string where = "the recorded oracle, specs/ops/record";
  if (release != kernels::kRecordedRelease) {
    where += "/" + release + ", where that release's CPU computes otherwise than " +
             kernels::kRecordedRelease + "'s";
  }
  const std::string oracle = "TensorFlow " + release + "'s CPU";
  const std::string stand_in = record.stand_in();
  if (stand_in.empty()) return {"on the plugin's device", oracle + " kernel (" + where + ")"};
  return {"on the plugin's device",
          oracle + ", which has no kernel of the op: " + stand_in + " (" + where + ")"};
}

// Every cell id of `cases`, in order, each once.
std::vector<std::string> CellIds(const json& cases) {
  std::vector<std::string> ids;
  for (const json& kernel_case : cases) {
    const std::string id = kernel_case.value("id", "");
    if (ids.empty() || ids.back() != id) ids.push_back(id);
  }
  return ids;
}

// The plugin's result as the --tensorflow driver reports one (kernel_cases.h), so the judgement
// reads both routes alike.
json PluginResult(const kernels::CaseOutcome& run, const kernels::CaseSpec& spec) {
  if (run.code != TF_OK) return {{"error", {{"code", run.code}, {"message", run.message}}}};
  json outputs = json::array();
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    if (i >= run.outputs.size() || !run.outputs[i]) {
      return {{"error",
               {{"code", TF_INTERNAL},
                {"message",
                 "the kernel reported OK but never set output '" + spec.outputs[i].name + "'"}}}};
    }
    const kernels::HostTensor& tensor = *run.outputs[i];
    json output = {{"dtype", static_cast<int>(tensor.dtype)}, {"shape", tensor.shape}};
    if (tensor.dtype == TF_STRING) {
      output["strings"] = kernels::StringsJson(tensor);
    } else {
      output["hex"] = kernels::Hex(tensor.bytes);
    }
    outputs.push_back(std::move(output));
  }
  return {{"outputs", outputs}};
}

// Why a cell is not judged: its first reason, and whether the record is out of date there (a
// suite problem, reported as skipped whatever else the cell ran).
struct Unjudged {
  std::string reason;
  bool out_of_date = false;
  void Note(std::string why) {
    if (reason.empty()) reason = std::move(why);
  }
  void Note(const kernels::RecordedCase& found) {
    if (found.kind == kernels::RecordedCase::Kind::kOutOfDate && !out_of_date) {
      reason = found.reason;
      out_of_date = true;
    } else if (reason.empty()) {
      reason = found.reason;
    }
  }
};

void Report(CheckLog& log, const CheckResult& result) {
  switch (result.outcome) {
    case Outcome::kPass: log.Pass(result.id, {{"judged", result.message}}); return;
    case Outcome::kFail: log.Fail(result.id, result.message, std::nullopt, result.details); return;
    case Outcome::kSkipped: log.Skip(result.id, result.message); return;
    default: log.NotSupported(result.id, result.message); return;
  }
}

void RunRecordedOp(const std::string& op, const json& cases, UnitContext& context) {
  const std::vector<std::string> ids = CellIds(cases);
  CheckLog log(context.sink, ids);
  // Cases with a variable input need a kernel that updates the variable through the core's
  // variable functions: under a core that exports none (TensorFlow 2.21) they cannot run, as the
  // kernel tier says of its scenarios' variable inputs.
  const bool has_variable = std::any_of(cases.begin(), cases.end(), [](const json& c) {
    return std::any_of(c.at("inputs").begin(), c.at("inputs").end(), [](const json& input) {
      return input.value("variable", false) || input.value("ref", false);
    });
  });
  if (has_variable) {
    if (auto why = validate::VariableUpdatesUnavailable(context.settings.profile, {op},
                                                        "these cases' variable inputs")) {
      for (const std::string& id : ids) log.NotSupported(id, *why);
      return;
    }
  }
  auto opened = kernels::KernelTarget::Open(context.settings.plugin_path,
                                            runtime::SessionOptionsFor(context.settings));
  if (!opened.ok()) {
    for (const std::string& id : ids) {
      if (opened.error().kind == runtime::ErrorKind::kUnsupported) {
        log.NotSupported(id, opened.error().Describe());
      } else {
        log.Skip(id, "cannot bring the plugin up: " + opened.error().Describe());
      }
    }
    return;
  }
  kernels::KernelTarget& target = *opened.value();
  const ops::OpRegistry& registry = *ops::FindOpRegistry(kernels::kRecordedRelease);
  const ops::OpDef* def = registry.Find(op);
  const std::string release = KernelValuesRelease(context.settings.profile);
  const kernels::RecordedOp record(kernels::RecordDirectory(), op, release);
  // The records of the ops a borrowed cell is judged from (MatrixDiag for BatchMatrixDiag).
  std::map<std::string, std::unique_ptr<kernels::RecordedOp>> sources;
  kernels::CaseRunner runner(target);
  std::map<std::string, Unjudged> unjudged;
  std::map<std::string, std::string> judged_by;  // cell id -> the release whose record judged it
  json ran = json::array();
  std::string running;
  for (const json& kernel_case : cases) {
    const std::string id = kernel_case.value("id", "");
    if (id != running) log.Begin(running = id);  // a crash is the cell's
    // A borrowed case (borrowed_cells.h) is found as its source case, its result converted.
    const json& recorded_as = kernels::RecordedAs(kernel_case);
    const std::string source_op = recorded_as.value("op", op);
    if (source_op != op && !sources.contains(source_op)) {
      sources.emplace(source_op, std::make_unique<kernels::RecordedOp>(kernels::RecordDirectory(),
                                                                       source_op, release));
    }
    const kernels::RecordedCase found =
        (source_op == op ? record : *sources.at(source_op)).Find(recorded_as);
    if (found.kind != kernels::RecordedCase::Kind::kResult) {
      unjudged[id].Note(found);
      continue;
    }
    judged_by[id] = found.release;
    json entry = kernels::RecordedExpectations(kernel_case, recorded_as, found);
    entry["id"] = id;
    entry["shape_index"] = kernel_case.at("shape_index");
    // A companion only holds an expectation of another case (TensorFlow's CPU on flushed or
    // float64 inputs): nothing of it runs on the plugin.
    if (kernel_case.value("companion", false)) {
      ran.push_back(std::move(entry));
      continue;
    }
    // A plugin-defined op's case is made by the TensorFlow op's definition it stands for
    // (plugin_stand_ins.h checked the two agree; the case sets the plugin's own attrs).
    const ops::OpDef* case_def = def != nullptr ? def : registry.Find(source_op);
    if (case_def == nullptr) {
      unjudged[id].Note("neither " + op + " nor " + source_op + " is in TensorFlow's registry");
      continue;
    }
    auto spec = kernels::CaseFromJson(kernel_case, *case_def);
    if (const auto* why = std::get_if<std::string>(&spec)) {
      unjudged[id].Note("the harness cannot make the case: " + *why);
      continue;
    }
    const kernels::CaseSpec& made = std::get<kernels::CaseSpec>(spec);
    const core::KernelRegistration* kernel = target.FindKernel(op, made.attrs);
    if (kernel == nullptr) {
      unjudged[id].Note("no kernel the plugin registers for " + op + " on " + target.device_type() +
                        " matches the attrs of case " + kernel_case.value("variant", ""));
      continue;
    }
    const kernels::CaseOutcome run = runner.Run(*kernel, made);
    if (!run.ran) {
      unjudged[id].Note("the harness could not run case " + kernel_case.value("variant", "") +
                        ": " + run.harness_error);
      continue;
    }
    entry["plugin"] = PluginResult(run, made);
    ran.push_back(std::move(entry));
  }
  // Each release's cells are judged with words naming that release: the cases copied once, as
  // the case dump JudgeGeneratedCells reads, and the results moved, not copied.
  std::map<std::string, std::pair<json, json>> by_release;  // release -> ({cases}, ran)
  for (const json& kernel_case : cases) {
    const auto found = judged_by.find(kernel_case.value("id", ""));
    if (found != judged_by.end()) by_release[found->second].first["cases"].push_back(kernel_case);
  }
  for (json& entry : ran) {
    json& judged = by_release[judged_by[entry.value("id", "")]].second;
    judged.push_back(std::move(entry));
  }
  for (const auto& [cell_release, judged] : by_release) {
    const kernels::CpuOracleJudgement judgement = kernels::JudgeGeneratedCells(
        judged.first, judged.second, RecordWords(record, cell_release));
    for (const CheckResult& result : judgement.generated) {
      const auto cell = unjudged.find(result.id);
      if (cell != unjudged.end() && cell->second.out_of_date) continue;  // said below
      Report(log, result);
    }
  }
  for (const std::string& id : ids) {
    if (log.Emitted(id)) continue;
    const Unjudged& cell = unjudged[id];
    if (cell.out_of_date) {
      log.Skip(id, cell.reason);  // the suite's problem, not the plugin's
    } else {
      log.NotSupported(
          id, "not judged: " +
                  (cell.reason.empty() ? std::string("no case of the cell ran") : cell.reason));
    }
  }
}

// The registered cells without generated cases, with the generator's reason: said, so the
// coverage lists them with it, at the cost of no plugin bring-up.
void ReportNotGenerated(const json& not_generated, UnitContext& context) {
  std::vector<std::string> ids;
  for (const json& cell : not_generated) ids.push_back(cell.value("id", ""));
  CheckLog log(context.sink, ids);
  for (const json& cell : not_generated) {
    log.NotSupported(cell.value("id", ""),
                     "not judged: no cases generated for " + cell.value("op", "") + " (" +
                         cell.value("dtype", "") + "): " + cell.value("reason", ""));
  }
}

}  // namespace

std::vector<TestUnit> RecordedOracleUnits(const RunSettings& settings,
                                          const kernels::KernelListing* listing) {
  // Not listed: the kernel units say why the plugin does not come up, and the coverage that
  // the registrations could not be listed.
  if (!settings.judge_from_record || settings.plugin_path.empty() || listing == nullptr) return {};
  const ops::OpRegistry* registry = ops::FindOpRegistry(kernels::kRecordedRelease);
  if (registry == nullptr) return {};
  // Only the built-in scenarios stand in for generated cases, as with --tensorflow: a vendor's
  // scenario adds cases, never replaces them. The record holds one seed's inputs.
  // PLUGIN_CONFORMANCE_RECORD_EVERY_CELL=1 generates cases for the cells scenarios cover too:
  // the test holding the reference plugin (the oracle of those cells) to the record.
  const std::vector<kernels::RegisteredKernel>& registered = listing->unlabelled;
  // Stateful random ops are judged by their draws' properties, never against recorded values.
  std::vector<TestUnit> units = RandomDrawUnits(registered);
  const char* every_cell = std::getenv("PLUGIN_CONFORMANCE_RECORD_EVERY_CELL");
  const bool scenarios_stand_in = every_cell == nullptr || std::string(every_cell) != "1";
  json generated =
      kernels::GenerateCases(registered,
                             scenarios_stand_in ? kernels::BuiltinKernelScenarios()
                                                : std::vector<kernels::KernelScenario>{},
                             *registry, settings.declared_precision, kernels::kRecordedSeed);
  kernels::BorrowRejectedCells(generated, registered, *registry, settings.declared_precision);
  kernels::PluginOps plugin_ops([path = settings.plugin_path] {
    return kernels::ListPluginOps(path, kernels::kPluginOpsListingSeconds);
  });
  kernels::AddStandInCells(generated, registered, *registry, settings.declared_precision,
                           plugin_ops);
  std::vector<std::string> order;
  std::map<std::string, json> by_op;
  std::vector<std::string> all_ids;
  for (json& kernel_case : generated["cases"]) {
    const std::string op = kernel_case.value("op", "");
    if (!by_op.contains(op)) order.push_back(op);
    json& cases = by_op[op];
    if (cases.is_null()) cases = json::array();
    cases.push_back(std::move(kernel_case));
  }
  for (const std::string& op : order) {
    TestUnit unit;
    unit.name = "kernel." + op + ".recorded";
    unit.tier = "kernels";
    unit.check_ids = CellIds(by_op[op]);
    all_ids.insert(all_ids.end(), unit.check_ids.begin(), unit.check_ids.end());
    unit.prerequisites = {"load.se.create_stream_executor"};
    unit.run = [op, cases = std::make_shared<const json>(std::move(by_op[op]))](
                   UnitContext& context) { RunRecordedOp(op, *cases, context); };
    units.push_back(std::move(unit));
  }
  if (!generated["not_generated"].empty()) {
    TestUnit unit;
    unit.name = "kernel.not_generated";
    unit.tier = "kernels";
    for (const json& cell : generated["not_generated"])
      unit.check_ids.push_back(cell.value("id", ""));
    all_ids.insert(all_ids.end(), unit.check_ids.begin(), unit.check_ids.end());
    unit.prerequisites = {"load.se.create_stream_executor"};
    unit.run = [cells = std::make_shared<const json>(std::move(generated["not_generated"]))](
                   UnitContext& context) { ReportNotGenerated(*cells, context); };
    units.push_back(std::move(unit));
  }
  AddRunTimeChecks(RecordedCheckEntries(all_ids));
  return units;
}

}  // namespace conformance
