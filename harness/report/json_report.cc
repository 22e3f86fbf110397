#include "report/json_report.h"

#include <stdexcept>

#include "model/outcome.h"
#include "report/op_coverage.h"
#include "run/root_causes.h"

namespace conformance {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json ResultToJson(const CheckResult& result, const CheckLookup& lookup) {
  ordered_json out = {
      {"id", result.id},           {"outcome", ToString(result.outcome)},
      {"message", result.message}, {"seconds", result.seconds},
      {"details", result.details},
  };
  if (result.tf_code) out["tf_code"] = *result.tf_code;
  if (result.crash) {
    out["crash"] = {
        {"signal", result.crash->signal},
        {"last_call", result.crash->last_call},
        {"backtrace", result.crash->backtrace},
    };
  }
  if (!result.waiver_reason.empty()) out["waiver_reason"] = result.waiver_reason;
  if (!result.plugin_output.empty()) out["plugin_output"] = result.plugin_output;
  if (!result.tier.empty()) out["tier"] = result.tier;
  if (const CheckEntry* entry = Lookup(lookup, result.id)) {
    out["origin"] = ToString(entry->origin);
  }
  return out;
}

// The op coverage table: totals per cell state, then per op its cells and property outcomes.
ordered_json CoverageToJson(const CoverageTable& table) {
  const std::map<CellState, int> cell_counts = table.CellCounts();
  ordered_json counts = ordered_json::object();
  for (CellState state : kAllCellStates)
    counts[std::string(ToString(state))] = cell_counts.at(state);
  ordered_json ops = ordered_json::array();
  for (const OpCoverage& op : table.ops) {
    ordered_json cells = ordered_json::object();
    for (const CoverageCell& cell : op.cells) {
      cells[cell.dtype] = {{"state", ToString(cell.state)}, {"checks", cell.checks}};
    }
    ordered_json properties = ordered_json::object();
    for (const auto& [name, outcome] : op.properties) properties[name] = ToString(outcome);
    ops.push_back({{"op", op.op},
                   {"registered", op.Registered()},
                   {"cells", cells},
                   {"properties", properties}});
  }
  // The models tier's rows: which of each model's ops the plugin has.
  ordered_json models = ordered_json::array();
  for (const ModelCoverage& row : table.models) {
    ordered_json model_ops = ordered_json::array();
    for (const ModelOp& op : row.ops)
      model_ops.push_back({{"op", op.op}, {"registered", op.registered}});
    models.push_back({{"model", row.model},
                      {"dtype", row.dtype},
                      {"state", ToString(row.state)},
                      {"check", row.check},
                      {"ops", model_ops}});
  }
  return {{"dtypes", table.dtypes}, {"cell_counts", counts}, {"ops", ops}, {"models", models}};
}

// "judged: X of Y registered (op, dtype) cells", and the cells no check judged with the reason.
ordered_json RegisteredCoverageToJson(const RegisteredCoverage& coverage) {
  ordered_json unjudged = ordered_json::array();
  for (const UnjudgedCell& cell : coverage.unjudged) {
    unjudged.push_back({{"op", cell.op}, {"dtype", cell.dtype}, {"reason", cell.reason}});
  }
  return {{"cells", coverage.cells}, {"judged", coverage.judged}, {"unjudged", unjudged}};
}

// Field access with a message that names the field, instead of nlohmann's generic one.
const json& Field(const json& object, const char* name, const std::string& where) {
  if (!object.is_object() || !object.contains(name)) {
    throw std::runtime_error("JSON report: " + where + " has no field '" + name + "'");
  }
  return object.at(name);
}

template <typename T>
T Get(const json& object, const char* name, const std::string& where) {
  try {
    return Field(object, name, where).get<T>();
  } catch (const json::exception& error) {
    throw std::runtime_error("JSON report: " + where + "." + name + ": " + error.what());
  }
}

CheckResult ResultFromJson(const json& in, std::size_t index) {
  const std::string where = "results[" + std::to_string(index) + "]";
  CheckResult result;
  result.id = Get<std::string>(in, "id", where);
  const std::string outcome = Get<std::string>(in, "outcome", where);
  const std::optional<Outcome> parsed = OutcomeFromString(outcome);
  if (!parsed)
    throw std::runtime_error("JSON report: " + where + ": unknown outcome '" + outcome + "'");
  result.outcome = *parsed;
  result.message = Get<std::string>(in, "message", where);
  result.seconds = Get<double>(in, "seconds", where);
  result.details = Get<std::map<std::string, std::string>>(in, "details", where);
  if (in.contains("tf_code")) result.tf_code = Get<int>(in, "tf_code", where);
  if (in.contains("crash")) {
    const json& crash = in.at("crash");
    const std::string crash_where = where + ".crash";
    result.crash = CrashInfo{
        Get<std::string>(crash, "signal", crash_where),
        Get<std::string>(crash, "last_call", crash_where),
        Get<std::vector<std::string>>(crash, "backtrace", crash_where),
    };
  }
  if (in.contains("waiver_reason")) {
    result.waiver_reason = Get<std::string>(in, "waiver_reason", where);
  }
  if (in.contains("plugin_output")) {
    result.plugin_output = Get<std::string>(in, "plugin_output", where);
  }
  if (in.contains("tier")) result.tier = Get<std::string>(in, "tier", where);
  return result;
}

}  // namespace

ordered_json RunReportToJson(const RunReport& report, const CheckLookup& lookup) {
  ordered_json counts = ordered_json::object();
  for (const auto& [outcome, count] : report.Counts())
    counts[std::string(ToString(outcome))] = count;
  ordered_json results = ordered_json::array();
  for (const CheckResult& result : report.results) results.push_back(ResultToJson(result, lookup));

  ordered_json out = {
      {"format_version", kJsonReportFormatVersion},
      {"tool", {{"name", "plugin_conformance"}, {"version", report.tool_version}}},
      {"plugin", report.plugin_path},
      {"co_loaded_plugins", report.co_loaded_plugins},
      {"profile", report.profile},
      // A string: 64-bit seeds do not survive JSON parsers that read numbers as doubles.
      {"seed", std::to_string(report.seed)},
      {"tiers", report.tiers},
      {"filter", report.filter},
      {"jobs", report.jobs},
      {"timeout_ms", report.timeout_ms},
      {"isolation", report.isolation},
      {"started_at", report.started_at},
      {"wall_seconds", report.wall_seconds},
      {"host",
       {{"system", report.host.system},
        {"node", report.host.node},
        {"release", report.host.release},
        {"version", report.host.version},
        {"machine", report.host.machine}}},
  };
  if (report.shard) out["shard"] = {{"index", report.shard->index}, {"total", report.shard->total}};
  if (report.repeat > 1) out["repeat"] = report.repeat;
  if (!report.declared_precision.empty()) {
    ordered_json declarations = ordered_json::array();
    for (const DeclaredPrecision& d : report.declared_precision) {
      ordered_json declaration = {{"op", d.op}, {"dtype", d.dtype}};
      if (!d.scenario.empty()) declaration["scenario"] = d.scenario;  // absent: every scenario
      declaration.update({{"rtol", d.rtol},
                          {"atol", d.atol},
                          {"ulp", d.ulp},
                          {"reason", d.reason},
                          {"source", d.source}});
      declarations.push_back(std::move(declaration));
    }
    out["declared_precision"] = declarations;
  }
  out["total"] = report.results.size();
  out["counts"] = counts;
  out["conformant"] = report.Conformant();
  out["plugin_loaded"] = report.PluginLoaded();
  if (!report.Conformant()) out["not_conformant_reason"] = report.NotConformantReason();
  if (!report.load_failure.empty()) out["load_failure"] = report.load_failure;
  if (!report.no_device.empty()) {
    ordered_json not_run = ordered_json::array();
    for (const std::string& tier : report.DeviceTiersNotRun()) not_run.push_back(tier);
    out["no_device"] = {{"reason", report.no_device}, {"device_tiers_not_run", not_run}};
  }
  ordered_json root_causes = ordered_json::array();
  for (const RootCause& cause : GroupRootCauses(report.results)) {
    ordered_json entry = {{"call", cause.call}, {"problem", cause.problem}};
    if (!cause.kernel.empty()) entry["kernel"] = cause.kernel;  // a kernel callback's op
    entry["message"] = cause.message;
    entry["checks"] = cause.checks;
    root_causes.push_back(std::move(entry));
  }
  out["root_causes"] = root_causes;
  if (report.header_generation) out["header_generation"] = *report.header_generation;
  if (report.tensorflow_verdict)
    out["tensorflow_verdict"] = ordered_json(*report.tensorflow_verdict);
  if (report.installed_tensorflow)
    out["installed_tensorflow"] = ordered_json(*report.installed_tensorflow);
  if (report.registered_kernels) {
    ordered_json cells = ordered_json::array();
    for (const RegisteredCell& cell : *report.registered_kernels) {
      cells.push_back({{"op", cell.op}, {"dtype", cell.dtype}, {"scenario", cell.scenario}});
    }
    out["registered_kernels"] = cells;
  }
  if (const CoverageTable coverage = BuildCoverageTable(report.results);
      !coverage.empty() || report.registered_kernels) {
    out["op_coverage"] = CoverageToJson(coverage);
    if (report.registered_kernels) {
      out["op_coverage"]["registered_kernels"] = RegisteredCoverageToJson(
          JudgeRegisteredCells(*report.registered_kernels, coverage, report.results,
                               report.installed_tensorflow.has_value()));
    }
  }
  out["warnings"] = report.warnings;
  out["results"] = results;
  return out;
}

RunReport RunReportFromJson(const json& in) {
  const std::string where = "report";
  const int version = Get<int>(in, "format_version", where);
  if (version != kJsonReportFormatVersion) {
    throw std::runtime_error("JSON report: unsupported format_version " + std::to_string(version));
  }
  RunReport report;
  report.tool_version = Get<std::string>(Field(in, "tool", where), "version", "tool");
  report.plugin_path = Get<std::string>(in, "plugin", where);
  report.co_loaded_plugins = Get<std::vector<std::string>>(in, "co_loaded_plugins", where);
  report.profile = Get<std::string>(in, "profile", where);
  const std::string seed = Get<std::string>(in, "seed", where);
  try {
    std::size_t used = 0;
    report.seed = std::stoull(seed, &used);
    if (used != seed.size()) throw std::invalid_argument(seed);
  } catch (const std::logic_error&) {
    throw std::runtime_error("JSON report: seed '" + seed + "' is not an unsigned integer");
  }
  report.tiers = Get<std::vector<std::string>>(in, "tiers", where);
  report.filter = Get<std::string>(in, "filter", where);
  report.jobs = Get<int>(in, "jobs", where);
  report.timeout_ms = Get<std::int64_t>(in, "timeout_ms", where);
  report.isolation = Get<bool>(in, "isolation", where);
  report.started_at = Get<std::string>(in, "started_at", where);
  report.wall_seconds = Get<double>(in, "wall_seconds", where);
  const json& host = Field(in, "host", where);
  report.host =
      HostInfo{Get<std::string>(host, "system", "host"), Get<std::string>(host, "node", "host"),
               Get<std::string>(host, "release", "host"), Get<std::string>(host, "version", "host"),
               Get<std::string>(host, "machine", "host")};
  report.warnings = Get<std::vector<std::string>>(in, "warnings", where);
  if (in.contains("shard")) {
    const json& shard = in.at("shard");
    report.shard = ShardSpec{Get<int>(shard, "index", "shard"), Get<int>(shard, "total", "shard")};
  }
  if (in.contains("tensorflow_verdict")) report.tensorflow_verdict = in.at("tensorflow_verdict");
  if (in.contains("installed_tensorflow"))
    report.installed_tensorflow = in.at("installed_tensorflow");
  if (in.contains("repeat")) report.repeat = Get<int>(in, "repeat", where);
  if (in.contains("declared_precision")) {
    for (const json& d : Field(in, "declared_precision", where)) {
      const std::string item = "declared_precision";
      report.declared_precision.push_back(
          DeclaredPrecision{Get<std::string>(d, "op", item), Get<std::string>(d, "dtype", item),
                            d.contains("scenario") ? Get<std::string>(d, "scenario", item) : "",
                            Get<double>(d, "rtol", item), Get<double>(d, "atol", item),
                            Get<std::uint64_t>(d, "ulp", item), Get<std::string>(d, "reason", item),
                            Get<std::string>(d, "source", item)});
    }
  }
  if (in.contains("load_failure"))
    report.load_failure = Get<std::string>(in, "load_failure", where);
  if (in.contains("no_device"))
    report.no_device = Get<std::string>(Field(in, "no_device", where), "reason", "no_device");
  if (in.contains("header_generation")) {
    report.header_generation = Get<std::string>(in, "header_generation", where);
  }
  if (in.contains("registered_kernels")) {
    std::vector<RegisteredCell> cells;
    for (const json& cell : Field(in, "registered_kernels", where)) {
      const std::string item = "registered_kernels";
      cells.push_back({Get<std::string>(cell, "op", item), Get<std::string>(cell, "dtype", item),
                       Get<bool>(cell, "scenario", item)});
    }
    report.registered_kernels = std::move(cells);
  }
  const json& results = Field(in, "results", where);
  if (!results.is_array()) throw std::runtime_error("JSON report: results is not an array");
  for (std::size_t i = 0; i < results.size(); ++i) {
    report.results.push_back(ResultFromJson(results[i], i));
  }
  return report;
}

std::string RenderJsonReport(const RunReport& report, const CheckLookup& lookup) {
  return JsonReportText(RunReportToJson(report, lookup));
}

std::string JsonReportText(const ordered_json& document) {
  return document.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace conformance
