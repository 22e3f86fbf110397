#include "installed_tensorflow/model_graphs.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "installed_tensorflow/attr_setters.h"
#include "installed_tensorflow/driver_steps.h"
#include "installed_tensorflow/kernel_cases.h"
#include "installed_tensorflow/owned_status.h"
#include "installed_tensorflow/proto_wire.h"

namespace tensorflow_driver {
namespace {

using nlohmann::json;

// RunOptions{trace_level: FULL_TRACE (field 1 = 3), output_partition_graphs: true (field 5)}:
// the run metadata then carries the graphs the optimizers left and the nodes that ran.
constexpr unsigned char kTracedRunOptions[] = {0x08, 0x03, 0x28, 0x01};

struct GraphError : std::runtime_error {
  explicit GraphError(json error_json)
      : std::runtime_error(error_json.dump()), error(std::move(error_json)) {}
  json error;
};

// The model's attrs, by the kind model_dump writes (kernels/case_json.h's AttrJson).
void SetAttr(const TensorFlowCApi& api, TfOperationDescription* node, const std::string& name,
             const json& value) {
  const AttrSetters<TfOperationDescription> setters{
      api.set_attr_type,       api.set_attr_int,         api.set_attr_float,
      api.set_attr_bool,       api.set_attr_string,      api.set_attr_int_list,
      api.set_attr_float_list, api.set_attr_string_list, api.set_attr_type_list,
      api.set_attr_shape};
  SetAttrJson(setters, node, name, value);
}

using TensorPtr = std::unique_ptr<TfTensor, void (*)(TfTensor*)>;

// One model as a graph: a Placeholder per input (fed each step), then the nodes, each on
// `device`; the type attrs come from the inputs, as for any graph node TensorFlow builds.
class ModelGraph {
 public:
  ModelGraph(const TensorFlowCApi& api, const json& model, const std::string& device)
      : api_(api), graph_(api.new_graph()) {
    const json& first_inputs = model.at("steps").at(0).at("inputs");
    const json& input_names = model.at("inputs");
    for (std::size_t i = 0; i < input_names.size(); ++i) {
      const std::string name = input_names[i];
      TfOperationDescription* node = api.new_operation(graph_, "Placeholder", name.c_str());
      api.set_device(node, device.c_str());
      const auto dtype = DataTypeOfName(first_inputs.at(i).at("dtype").get<std::string>());
      if (!dtype) throw std::invalid_argument("input dtype of " + name);
      api.set_attr_type(node, "dtype", *dtype);
      feeds_.push_back({Finish(node, "Placeholder " + name), 0});
      tensors_[name] = feeds_.back();
    }
    for (const json& entry : model.at("nodes")) {
      const std::string name = entry.at("name");
      TfOperationDescription* node =
          api.new_operation(graph_, entry.at("op").get<std::string>().c_str(), name.c_str());
      api.set_device(node, device.c_str());
      for (const json& input : entry.at("inputs")) api.add_input(node, Tensor(input));
      for (const auto& [attr, value] : entry.at("attrs").items()) SetAttr(api, node, attr, value);
      TfOperation* operation = Finish(node, entry.at("op").get<std::string>() + " " + name);
      int index = 0;
      for (const json& output : entry.at("outputs")) tensors_[output] = {operation, index++};
    }
    for (const json& output : model.at("outputs")) fetches_.push_back(Tensor(output));
  }
  ~ModelGraph() {
    if (session_ != nullptr) {
      OwnedStatus status(api_);
      api_.close_session(session_, status.get());
      api_.delete_session(session_, status.get());
    }
    api_.delete_graph(graph_);
  }
  ModelGraph(const ModelGraph&) = delete;
  ModelGraph& operator=(const ModelGraph&) = delete;

  // One step: its outputs, and the run metadata's bytes in `metadata`.
  json Run(const json& inputs, std::string& metadata) {
    OwnedStatus status(api_);
    if (session_ == nullptr) {
      TfSessionOptions* options = api_.new_session_options();
      session_ = api_.new_session(graph_, options, status.get());
      api_.delete_session_options(options);
      if (!status.ok()) throw GraphError(status.Error("TF_NewSession"));
    }
    std::vector<TensorPtr> owned;
    std::vector<TfTensor*> values;
    for (const json& input : inputs) {
      owned.push_back(HostTensor(input));
      values.push_back(owned.back().get());
    }
    std::vector<TfTensor*> outputs(fetches_.size(), nullptr);
    TfBuffer* options = api_.new_buffer_from_string(kTracedRunOptions, sizeof kTracedRunOptions);
    TfBuffer* run_metadata = api_.new_buffer();
    api_.session_run(session_, options, feeds_.data(), values.data(),
                     static_cast<int>(feeds_.size()), fetches_.data(), outputs.data(),
                     static_cast<int>(outputs.size()), nullptr, 0, run_metadata, status.get());
    api_.delete_buffer(options);
    if (run_metadata->data != nullptr) {
      metadata.assign(static_cast<const char*>(run_metadata->data), run_metadata->length);
    }
    api_.delete_buffer(run_metadata);
    if (!status.ok()) throw GraphError(status.Error("TF_SessionRun"));
    json result = json::array();
    for (TfTensor* output : outputs) {
      TensorPtr owned_output(output, api_.delete_tensor);
      result.push_back(OutputJson(api_, output));
    }
    return result;
  }

 private:
  TfOperation* Finish(TfOperationDescription* node, const std::string& what) {
    OwnedStatus status(api_);
    TfOperation* operation = api_.finish_operation(node, status.get());
    if (!status.ok()) throw GraphError(status.Error("TF_FinishOperation (" + what + ")"));
    return operation;
  }
  TfOutput Tensor(const std::string& name) const {
    const auto found = tensors_.find(name);
    if (found == tensors_.end()) throw std::invalid_argument("no tensor " + name);
    return found->second;
  }
  TensorPtr HostTensor(const json& tensor) const {
    const auto dtype = DataTypeOfName(tensor.at("dtype").get<std::string>());
    const std::vector<unsigned char> bytes = BytesOfHex(tensor.at("hex").get<std::string>());
    std::vector<int64_t> dims = tensor.at("shape").get<std::vector<int64_t>>();
    TensorPtr host(
        api_.allocate_tensor(*dtype, dims.data(), static_cast<int>(dims.size()), bytes.size()),
        api_.delete_tensor);
    if (!bytes.empty()) std::memcpy(api_.tensor_data(host.get()), bytes.data(), bytes.size());
    return host;
  }

  const TensorFlowCApi& api_;
  TfGraph* graph_;
  TfSession* session_ = nullptr;
  std::vector<TfOutput> feeds_;
  std::vector<TfOutput> fetches_;
  std::map<std::string, TfOutput> tensors_;
};

// RunMetadata: partition_graphs (3) → GraphDef.node (1) → NodeDef {name 1, op 2}; step_stats
// (1) → dev_stats (1) → node_stats (2) → NodeExecStats.node_name (1).
void ReadRunMetadata(std::string_view metadata, json& graph_ops, json& ran_ops) {
  std::map<std::string, std::string> op_of_node;
  std::set<std::string> ran;
  WireReader reader(metadata);
  for (int field = 0, wire = 0; reader.Next(field, wire);) {
    if (field == 3 && wire == 2) {
      WireReader graph(reader.Bytes());
      for (int g = 0, g_wire = 0; graph.Next(g, g_wire);) {
        if (g != 1 || g_wire != 2) {
          graph.Skip(g_wire);
          continue;
        }
        WireReader node(graph.Bytes());
        std::string name;
        std::string op;
        for (int n = 0, n_wire = 0; node.Next(n, n_wire);) {
          if (n == 1 && n_wire == 2) {
            name = std::string(node.Bytes());
          } else if (n == 2 && n_wire == 2) {
            op = std::string(node.Bytes());
          } else {
            node.Skip(n_wire);
          }
        }
        op_of_node[name] = op;
      }
    } else if (field == 1 && wire == 2) {
      WireReader stats(reader.Bytes());
      for (int s = 0, s_wire = 0; stats.Next(s, s_wire);) {
        if (s != 1 || s_wire != 2) {
          stats.Skip(s_wire);
          continue;
        }
        WireReader device(stats.Bytes());
        for (int d = 0, d_wire = 0; device.Next(d, d_wire);) {
          if (d != 2 || d_wire != 2) {
            device.Skip(d_wire);
            continue;
          }
          WireReader node(device.Bytes());
          for (int n = 0, n_wire = 0; node.Next(n, n_wire);) {
            if (n == 1 && n_wire == 2) {
              ran.insert(std::string(node.Bytes()));
            } else {
              node.Skip(n_wire);
            }
          }
        }
      }
    } else {
      reader.Skip(wire);
    }
  }
  for (const auto& [name, op] : op_of_node) {
    graph_ops[op] = graph_ops.value(op, 0) + 1;
    if (ran.contains(name)) ran_ops[op] = ran_ops.value(op, 0) + 1;
  }
}

json RunModel(const TensorFlowCApi& api, const json& model, const std::string& device) {
  json result = {
      {"model", model.value("model", "")}, {"dtype", model.value("dtype", "")}, {"device", device}};
  if (!model.value("variables", json::array()).empty()) {
    result["not_run"] = "its resource variables are not built as graph variables here";
    return result;
  }
  if (!model.contains("steps")) {
    result["not_run"] = model.value("unavailable", "the dump has no steps");
    return result;
  }
  try {
    ModelGraph graph(api, model, device);
    result["steps"] = json::array();
    for (const json& step : model.at("steps")) {
      std::string metadata;
      result["steps"].push_back(graph.Run(step.at("inputs"), metadata));
      if (!result.contains("graph_ops")) {
        json graph_ops = json::object();
        json ran_ops = json::object();
        ReadRunMetadata(metadata, graph_ops, ran_ops);
        result["graph_ops"] = graph_ops;
        result["ran_ops"] = ran_ops;
      }
    }
  } catch (const GraphError& error) {
    result.erase("steps");
    result["error"] = error.error;
  } catch (const std::exception& error) {
    result.erase("steps");
    result["not_run"] = error.what();
  }
  return result;
}

// The first element of `got` outside `tolerance` of `want` (float and double; other dtypes
// bit for bit), as text; empty when they agree.
std::string Difference(const json& want, const json& got, const json& tolerance) {
  if (want.at("shape") != got.at("shape")) {
    return "shape " + got.at("shape").dump() + ", expected " + want.at("shape").dump();
  }
  const std::vector<unsigned char> a = BytesOfHex(got.at("hex"));
  const std::vector<unsigned char> e = BytesOfHex(want.at("hex"));
  if (a.size() != e.size()) return "a different byte size";
  const int dtype = want.value("dtype", 0);
  const std::size_t width = dtype == 2 ? 8 : dtype == 1 ? 4 : 1;
  const double rtol = tolerance.value("rtol", 0.0);
  const double atol = tolerance.value("atol", 0.0);
  for (std::size_t i = 0; i + width <= a.size(); i += width) {
    double actual = 0;
    double expected = 0;
    if (width == 4) {
      float x = 0;
      float y = 0;
      std::memcpy(&x, &a[i], 4);
      std::memcpy(&y, &e[i], 4);
      actual = x;
      expected = y;
    } else if (width == 8) {
      std::memcpy(&actual, &a[i], 8);
      std::memcpy(&expected, &e[i], 8);
    } else {
      actual = a[i];
      expected = e[i];
    }
    const bool both_nan = std::isnan(actual) && std::isnan(expected);
    const bool within = both_nan || actual == expected ||
                        (std::isfinite(actual) && std::isfinite(expected) &&
                         std::fabs(actual - expected) <= atol + rtol * std::fabs(expected));
    if (!within) {
      return "element [" + std::to_string(i / width) + "] " + std::to_string(actual) +
             ", TensorFlow's CPU kernels give " + std::to_string(expected);
    }
  }
  return "";
}

}  // namespace

void RunModelGraphs(const TensorFlowCApi& api, const std::string& models_path,
                    const std::string& device, const char* step, std::FILE* report) {
  std::ifstream in(models_path);
  const json dump = json::parse(in, nullptr, false);
  if (dump.is_discarded() || !dump.contains("models")) {
    Emit(report, {{"step", step}, {"error", "cannot read " + models_path}});
    return;
  }
  for (const json& model : dump["models"]) {
    // Named before it runs: a kernel that kills the process leaves the model it died in.
    Emit(report, {{"step", std::string(step) + "_started"},
                  {"result",
                   {{"model", model.value("model", "")},
                    {"dtype", model.value("dtype", "")},
                    {"died", true}}}});
    Emit(report, {{"step", step}, {"result", RunModel(api, model, device)}});
  }
}

json ModelGraphResults(const std::string& report, const std::string& step) {
  json results = json::array();
  json started;  // the model running when the child died, if it did
  std::istringstream lines(report);
  for (std::string line; std::getline(lines, line);) {
    const json entry = json::parse(line, nullptr, false);
    if (entry.is_discarded()) continue;
    if (entry.value("step", "") == step + "_started") started = entry["result"];
    if (entry.value("step", "") == step) {
      results.push_back(entry["result"]);
      started = nullptr;
    }
  }
  if (!started.is_null()) results.push_back(started);
  return results;
}

json PluginGraphOps(const json& plugin) {
  std::set<std::string> ops;
  for (const json& result : plugin) {
    const json graph_ops = result.value("graph_ops", json::object());
    for (const auto& [op, count] : graph_ops.items()) ops.insert(op);
  }
  return ops;
}

int KernelCount(const TensorFlowCApi& api, const std::string& op) {
  TfStatus* status = api.new_status();
  TfBuffer* buffer = api.registered_kernels_for_op(op.c_str(), status);
  int count = 0;
  if (api.get_code(status) == 0 && buffer != nullptr) {
    WireReader list(std::string_view(static_cast<const char*>(buffer->data), buffer->length));
    for (int field = 0, wire = 0; list.Next(field, wire);) {
      if (field == 1 && wire == 2) {
        list.Bytes();
        ++count;
      } else {
        list.Skip(wire);
      }
    }
  }
  if (buffer != nullptr) api.delete_buffer(buffer);
  api.delete_status(status);
  return count;
}

json JudgeModelGraphs(const json& models_dump, const json& plugin, const json& cpu,
                      const json& kernels_without_plugin) {
  json judged = json::array();
  for (const json& model : models_dump.value("models", json::array())) {
    const std::string name = model.value("model", "");
    const std::string dtype = model.value("dtype", "");
    json entry = {{"model", name}, {"dtype", dtype}};
    // A model missing from a side's results never ran there: its process died earlier.
    auto find = [&](const json& results) {
      for (const json& result : results) {
        if (result.value("model", "") == name && result.value("dtype", "") == dtype) return result;
      }
      return json{{"not_run", "the process died before this model ran"}};
    };
    entry["plugin"] = find(plugin);
    entry["cpu"] = find(cpu);
    const json& with = entry["plugin"];
    const json& without = entry["cpu"];
    if (with.contains("steps") && without.contains("steps")) {
      entry["agree"] = true;
      for (std::size_t s = 0; s < with["steps"].size() && s < without["steps"].size(); ++s) {
        for (std::size_t o = 0; o < with["steps"][s].size(); ++o) {
          const std::string why = Difference(without["steps"][s][o], with["steps"][s][o],
                                             model.value("tolerance", json::object()));
          if (why.empty()) continue;
          entry["agree"] = false;
          entry["difference"] = "step " + std::to_string(s + 1) + ", output '" +
                                model["outputs"][o].get<std::string>() + "': " + why;
          break;
        }
        if (entry.contains("difference")) break;
      }
    }
    // The plugin's rewrites: ops of its optimized graph for which TensorFlow without the plugin
    // has no kernel at all (zentf's _Zen*, ITEX's _ITEX*), as opposed to TensorFlow's own
    // rewrites (_FusedMatMul, oneDNN's _Mkl*), which a plugin's presence may change too.
    json rewritten = json::object();
    json plugin_ops_ran = json::object();
    const json with_plugin = with.value("graph_ops", json::object());
    const json ran = with.value("ran_ops", json::object());
    for (const auto& [op, count] : with_plugin.items()) {
      if (kernels_without_plugin.value(op, 1) != 0) continue;
      rewritten[op] = count;
      if (ran.contains(op)) plugin_ops_ran[op] = ran[op];
    }
    entry["rewritten"] = rewritten;
    entry["plugin_ops_ran"] = plugin_ops_ran;
    for (json* side : {&entry["plugin"], &entry["cpu"]}) side->erase("steps");
    judged.push_back(std::move(entry));
  }
  return judged;
}

}  // namespace tensorflow_driver
