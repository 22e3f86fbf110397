// random_draw_judge --cases OUT | --judge DRAWS: the stateful random ops' draw cases
// (harness/kernels/random_draws.h) for every dtype TensorFlow 2.21.0's registry allows them, as
// JSON, and the judgement of draws made elsewhere. tests/tensorflow_oracle/random_draws_in_cpu.py
// runs each case twice on one kernel instance of TensorFlow's CPU and hands the draws back here:
// every judge must pass TensorFlow's own kernels (what the judges hold a plugin to is what
// TensorFlow guarantees), and every op must have at least one dtype TensorFlow's CPU draws.
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/case_from_json.h"
#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/random_draws.h"
#include "ops/registry.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: random_draw_judge --cases OUT\n"
    "       random_draw_judge --judge DRAWS\n"
    "--cases writes every draw case of every stateful random op and dtype as JSON; --judge\n"
    "reads {\"<id>\": {\"first\": [...], \"second\": [...]} or {\"error\": \"...\"}} and judges\n"
    "each case's two steps (exit 1 when one fails or an op has no dtype drawn).\n";

struct DrawCase {
  const kernels::StatefulRandomOp* op;
  kernels::CaseSpec spec;
  std::string id;  // "<Op>.<dtype>.<index>"
};

// Every case: each dtype the op's draws attr allows that the suite has values for.
std::vector<DrawCase> AllCases(const ops::OpRegistry& registry) {
  std::vector<DrawCase> cases;
  for (const kernels::StatefulRandomOp& op : kernels::StatefulRandomOps()) {
    std::vector<TF_DataType> dtypes;
    if (op.output_attr.empty()) {
      dtypes.push_back(op.fixed_dtype);
    } else if (const ops::OpDef* def = registry.Find(op.op); def != nullptr) {
      const ops::AttrDef* attr = def->FindAttr(std::string(op.output_attr));
      for (const std::string& name : kernels::ScenarioDtypeNames()) {
        const TF_DataType dtype = *kernels::DtypeFromName(name);
        if (dtype == TF_STRING || dtype == TF_BOOL) continue;  // no random op draws them
        if (attr == nullptr || attr->allowed_types.empty() ||
            std::find(attr->allowed_types.begin(), attr->allowed_types.end(), dtype) !=
                attr->allowed_types.end())
          dtypes.push_back(dtype);
      }
    }
    for (TF_DataType dtype : dtypes) {
      const auto specs = kernels::DrawCases(op, dtype, {});
      for (std::size_t i = 0; i < specs.size(); ++i) {
        cases.push_back(
            {&op, specs[i],
             std::string(op.op) + "." + kernels::DtypeName(dtype) + "." + std::to_string(i)});
      }
    }
  }
  return cases;
}

json CaseJson(const DrawCase& draw) {
  json attrs = json::object();
  for (const auto& [name, value] : draw.spec.attrs) attrs[name] = kernels::AttrJson(value);
  json inputs = json::array(), outputs = json::array();
  for (const auto& input : draw.spec.inputs) {
    json tensor = kernels::TensorJson(input.value);
    tensor["name"] = input.name;
    if (input.variable) tensor["variable"] = true;  // a state variable (StatefulStandardNormal)
    inputs.push_back(std::move(tensor));
  }
  for (const auto& output : draw.spec.outputs)
    outputs.push_back({{"name", output.name}, {"dtype", kernels::DtypeName(output.dtype)}});
  return {{"id", draw.id},
          {"op", draw.spec.op},
          {"attrs", attrs},
          {"inputs", inputs},
          {"outputs", outputs}};
}

std::optional<kernels::Outputs> OutputsOf(const json& tensors) {
  kernels::Outputs outputs;
  for (const json& tensor : tensors) {
    if (tensor.is_null()) {
      outputs.emplace_back();
      continue;
    }
    const auto dtype = kernels::DtypeFromName(tensor.at("dtype").get<std::string>());
    if (!dtype) return std::nullopt;
    outputs.emplace_back(kernels::HostTensor{*dtype, tensor.at("shape").get<core::Shape>(),
                                             kernels::BytesFromHex(tensor.at("hex"))});
  }
  return outputs;
}

int Judge(const std::vector<DrawCase>& cases, const json& draws) {
  int failures = 0;
  std::map<std::string, int> drawn;  // op -> cases TensorFlow drew and the judges passed
  for (const DrawCase& draw : cases) {
    drawn.try_emplace(std::string(draw.op->op), 0);
    if (!draws.contains(draw.id)) {
      std::cout << draw.id << ": no draws\n";
      ++failures;
      continue;
    }
    const json& result = draws.at(draw.id);
    if (result.contains("error")) {  // no CPU kernel for the dtype, or refused: not judged
      std::cout << draw.id << ": not drawn: " << result.at("error").get<std::string>() << "\n";
      continue;
    }
    const auto first = OutputsOf(result.at("first"));
    const auto second = OutputsOf(result.at("second"));
    std::optional<std::string> problem;
    if (!first || !second) {
      problem = "outputs of a dtype this tool cannot read";
    } else {
      problem = kernels::JudgeDraw(*draw.op, draw.spec, *first);
      if (!problem) problem = kernels::JudgeDraw(*draw.op, draw.spec, *second);
      if (!problem) problem = kernels::JudgeSuccessiveDraws(*draw.op, draw.spec, *first, *second);
    }
    if (problem) {
      std::cout << draw.id << ": FAIL: " << *problem << "\n";
      ++failures;
    } else {
      std::cout << draw.id << ": pass\n";
      ++drawn[std::string(draw.op->op)];
    }
  }
  for (const auto& [op, passed] : drawn) {
    if (passed == 0) {
      std::cout << op << ": FAIL: no dtype of it drawn and judged on TensorFlow's CPU\n";
      ++failures;
    }
  }
  std::cout << failures << " failure(s), " << drawn.size() << " ops\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string mode = argv[1], path = argv[2];
  const ops::OpRegistry* registry = ops::FindOpRegistry("2.21.0");
  if (registry == nullptr) {
    std::cerr << "random_draw_judge: no TensorFlow 2.21.0 registry is embedded\n";
    return 1;
  }
  const std::vector<DrawCase> cases = AllCases(*registry);
  if (mode == "--cases") {
    json out = {{"cases", json::array()}};
    for (const DrawCase& draw : cases) out["cases"].push_back(CaseJson(draw));
    std::ofstream file(path);
    file << out.dump();
    return file ? 0 : 1;
  }
  if (mode == "--judge") {
    std::ifstream file(path);
    json draws;
    try {
      draws = json::parse(file);
    } catch (const json::exception& error) {
      std::cerr << "random_draw_judge: " << path << ": " << error.what() << "\n";
      return 2;
    }
    return Judge(cases, draws);
  }
  std::cerr << kUsage;
  return 2;
}
