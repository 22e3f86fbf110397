#include "validate/graph_session.h"

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "isolate/in_flight.h"
#include "loader/plugin_library.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/tf_buffer.h"
#include "validate/check_log.h"
#include "validate/graph_cases.h"
#include "validate/tf_status.h"
#include "graph.pb.h"

namespace conformance::validate {
namespace {

constexpr const char* kOptimize = "TP_Optimizer.optimize_func";
constexpr const char* kStatusId = "graph.optimize.status";
constexpr const char* kParseId = "graph.optimize.output_parses";
constexpr const char* kPreservedId = "graph.optimize.preserved_nodes";
constexpr const char* kInputId = "graph.optimize.input_unmodified";

struct RegisteredOptimizer {
  TP_Optimizer optimizer{};
  TP_OptimizerConfigs configs{};
  std::string device_type;
};

// TF_InitGraph as TensorFlow calls it; the load tier already judged what it fills in.
bool Register(void (*init)(void*, void*), RegisteredOptimizer& out) {
  TP_OptimizerRegistrationParams params{};
  params.struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params.major_version = GO_MAJOR;
  params.minor_version = GO_MINOR;
  params.patch_version = GO_PATCH;
  out.optimizer.struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  out.configs.struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params.optimizer = &out.optimizer;
  params.optimizer_configs = &out.configs;
  OwnedStatus status;
  {
    in_flight::PluginCall call("TF_InitGraph");
    init(&params, status.get());
  }
  if (!status.ok() || out.optimizer.optimize_func == nullptr || params.device_type == nullptr)
    return false;
  out.device_type = params.device_type;
  return true;
}

Details Blame(const std::string& graph, const char* problem) {
  return {{"failing_call", kOptimize}, {"problem", problem}, {"graph", graph}};
}

// What one optimize_func call did, judged as the checks need it.
struct Findings {
  std::string status_error;  // non-empty: the plugin returned an error
  std::string unparsable;    // non-empty: output did not parse
  std::string dropped;       // non-empty: preserved nodes missing from the output
  std::string input_change;  // non-empty: how the input buffer was modified
};

std::string DescribeInputChange(const TF_Buffer& buffer, const void* data, std::size_t length,
                                const std::string& original) {
  if (buffer.data != data || buffer.length != length) {
    return "optimize_func replaced the input TF_Buffer's data/length fields";
  }
  const auto* bytes = static_cast<const unsigned char*>(buffer.data);
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (bytes[i] != static_cast<unsigned char>(original[i])) {
      return "optimize_func wrote into the input GraphDef bytes (first change at offset " +
             std::to_string(i) + " of " + std::to_string(original.size()) + ")";
    }
  }
  return {};
}

std::string MissingPreserved(const proto::GraphDef& output, const core::GrapplerItem& item) {
  std::set<std::string> names;
  for (const auto& node : output.node()) names.insert(node.name());
  std::string missing;
  for (const std::string& name : item.NodesToPreserve()) {
    if (!names.contains(name)) missing += (missing.empty() ? "" : ", ") + name;
  }
  return missing;
}

// One grappler instantiation: create, optimize once, destroy with create's result.
Findings OptimizeOnce(const RegisteredOptimizer& r, const GraphCase& graph) {
  Findings findings;
  void* instance = nullptr;
  if (r.optimizer.create_func) {
    in_flight::PluginCall call("TP_Optimizer.create_func");
    instance = r.optimizer.create_func();
  }
  const std::string& original = graph.item.serialized_graph_def;
  TF_Buffer* input = TF_NewBufferFromString(original.data(), original.size());
  const void* input_data = input->data;
  const std::size_t input_length = input->length;
  TF_Buffer* output = TF_NewBuffer();
  OwnedStatus status;
  {
    in_flight::PluginCall call(kOptimize);
    r.optimizer.optimize_func(instance, input, graph.item.c_handle(), output, status.get());
  }
  findings.input_change = DescribeInputChange(*input, input_data, input_length, original);
  if (!status.ok()) {
    findings.status_error = status.message() + " (TF_Code " + std::to_string(status.code()) + ")";
  } else {
    proto::GraphDef optimized;
    if (output->length != 0 && output->data == nullptr) {
      findings.unparsable =
          "the output TF_Buffer has length " + std::to_string(output->length) + " but data NULL";
    } else if (!optimized.ParseFromArray(output->data, static_cast<int>(output->length))) {
      findings.unparsable = "the " + std::to_string(output->length) +
                            " bytes optimize_func returned do not parse as a GraphDef";
    } else {
      findings.dropped = MissingPreserved(optimized, graph.item);
    }
  }
  // TensorFlow's TF_DeleteBuffer runs the plugin's data_deallocator on the output.
  TF_DeleteBuffer(output);
  // The input is the core's; restore its fields so a plugin that replaced them is not freed.
  input->data = input_data;
  input->length = input_length;
  TF_DeleteBuffer(input);
  if (r.optimizer.destroy_func) {
    in_flight::PluginCall call("TP_Optimizer.destroy_func");
    r.optimizer.destroy_func(instance);
  }
  return findings;
}

void Judge(const std::vector<GraphCase>& cases, const std::vector<Findings>& all, CheckLog& log) {
  const Details checked = {{"graphs", std::to_string(cases.size())}};
  auto first = [&](std::string Findings::*field) -> int {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!(all[i].*field).empty()) return static_cast<int>(i);
    }
    return -1;
  };
  if (int i = first(&Findings::status_error); i >= 0) {
    log.Warn(kStatusId,
             "optimize_func returned an error on graph '" + cases[i].name +
                 "': " + all[i].status_error +
                 ". TensorFlow logs it and keeps the graph from before the plugin's pass",
             Blame(cases[i].name, "error status"));
  } else {
    log.Pass(kStatusId, checked);
  }
  if (int i = first(&Findings::unparsable); i >= 0) {
    log.Fail(
        kParseId,
        all[i].unparsable + " (graph '" + cases[i].name +
            "'): TensorFlow fails the pass with INVALID_ARGUMENT and discards the plugin's output",
        {}, Blame(cases[i].name, "unparsable GraphDef"));
  } else {
    log.Pass(kParseId, checked);
  }
  if (int i = first(&Findings::dropped); i >= 0) {
    log.Fail(kPreservedId,
             "the optimized graph '" + cases[i].name +
                 "' lacks nodes TensorFlow asked to preserve: " + all[i].dropped +
                 " (fetch, feed and keep nodes, TF_GetNodesToPreserveList)",
             {}, Blame(cases[i].name, "preserved node dropped"));
  } else {
    log.Pass(kPreservedId, checked);
  }
  if (int i = first(&Findings::input_change); i >= 0) {
    log.Warn(kInputId, all[i].input_change + " (graph '" + cases[i].name + "'): the input is const",
             Blame(cases[i].name, "input buffer modified"));
  } else {
    log.Pass(kInputId, checked);
  }
}

void RunSession(const std::string& plugin_path, const std::vector<std::string>& ids,
                CheckLog& log) {
  auto library = loader::PluginLibrary::Open(plugin_path);
  if (!library.ok()) {
    log.SkipRemaining("graph.", "cannot load the plugin: " + library.error().Describe());
    return;
  }
  const auto entry_points = library.value().FindEntryPoints();
  if (!entry_points.tf_init_graph) {
    for (const auto& id : ids) log.NotSupported(id, "the plugin does not export TF_InitGraph");
    return;
  }
  RegisteredOptimizer optimizer;
  if (!Register(entry_points.tf_init_graph->function, optimizer)) {
    log.SkipRemaining("graph.", "TF_InitGraph did not register an optimizer with optimize_func");
    return;
  }
  const std::vector<GraphCase> cases = GraphCases(optimizer.device_type);
  std::vector<Findings> findings;
  findings.reserve(cases.size());
  // A crash is blamed on the status check, the first one a crashing optimize_func could answer.
  log.Begin(kStatusId);
  for (const GraphCase& graph : cases) findings.push_back(OptimizeOnce(optimizer, graph));
  Judge(cases, findings, log);
}

}  // namespace

TestUnit GraphOptimizerUnit() {
  TestUnit unit;
  unit.name = "graph.optimizer";
  unit.tier = "graph";
  unit.check_ids = {kStatusId, kParseId, kPreservedId, kInputId};
  unit.prerequisites = {"load.graph.optimizer.optimize_func"};
  unit.run = [ids = unit.check_ids](UnitContext& context) {
    CheckLog log(context.sink, ids);
    RunSession(context.settings.plugin_path, ids, log);
  };
  return unit;
}

}  // namespace conformance::validate
