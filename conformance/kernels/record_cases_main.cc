// record_case_dump [--release R] [--seed N] [--op OP]... [OUT]: the generated cases
// (generated_cases.h) of every op of TensorFlow's registry for `release` (default: the record's,
// recorded_oracle.h), as if one plugin registered a kernel for every dtype each op allows, each
// case with the digests of its attrs and inputs. specs/ops/record/record.py runs them on
// TensorFlow's CPU and writes the record; the record's own test compares the digests with it.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/dtype_values.h"
#include "kernels/generated_cases.h"
#include "kernels/recorded_oracle.h"
#include "ops/catalogue.h"
#include "ops/registry.h"

namespace {

using nlohmann::json;
using namespace conformance;

constexpr const char* kUsage =
    "usage: record_case_dump [--release R] [--seed N] [--op OP]... [OUT]\n"
    "Writes the generated cases of every op of TensorFlow R's registry (or of the ops named),\n"
    "one kernel per dtype the op allows, with their digests, as JSON to OUT (default: stdout).\n";

// The attr naming an op's cells: the first type attr typing an input (the generator's choice
// for a registration constraining it), else none.
std::string PrimaryTypeAttr(const ops::OpDef& def) {
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty() && input.number_attr.empty()) return input.type_attr;
  }
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty()) return input.type_attr;
  }
  return "";
}

bool SuiteHasValues(TF_DataType dtype) {
  return kernels::DtypeFromName(kernels::DtypeName(dtype)).has_value();
}

// One kernel per dtype of the primary type attr, as a plugin registers them; a type attr
// without a default the registration must fix is fixed to the cell's dtype where it allows it,
// else to its first allowed dtype with values.
std::vector<kernels::RegisteredKernel> KernelsOf(const ops::OpDef& def) {
  const std::string primary = PrimaryTypeAttr(def);
  if (primary.empty()) return {{def.name, {}}};
  std::vector<kernels::RegisteredKernel> kernels;
  for (TF_DataType dtype : ops::AllowedTypes(def, primary)) {
    if (!SuiteHasValues(dtype)) continue;
    kernels::RegisteredKernel kernel{def.name, {{primary, static_cast<int>(dtype)}}};
    for (const ops::AttrDef& attr : def.attrs) {
      if (attr.name == primary || attr.type != "type" || attr.default_text) continue;
      const std::vector<TF_DataType> allowed = ops::AllowedTypes(def, attr.name);
      TF_DataType fixed = dtype;
      if (std::find(allowed.begin(), allowed.end(), dtype) == allowed.end()) {
        const auto first = std::find_if(allowed.begin(), allowed.end(), SuiteHasValues);
        if (first == allowed.end()) continue;
        fixed = *first;
      }
      kernel.type_constraints.emplace_back(attr.name, static_cast<int>(fixed));
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

}  // namespace

int main(int argc, char** argv) {
  std::string release = kernels::kRecordedRelease;
  std::uint64_t seed = kernels::kRecordedSeed;
  std::set<std::string> only;
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--release" && i + 1 < argc) {
      release = argv[++i];
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--op" && i + 1 < argc) {
      only.insert(argv[++i]);
    } else if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (out_path.empty() && !arg.starts_with("-")) {
      out_path = arg;
    } else {
      std::cerr << kUsage;
      return 2;
    }
  }
  const ops::OpRegistry* registry = ops::FindOpRegistry(release);
  if (registry == nullptr) {
    std::cerr << "record_case_dump: no embedded op registry for TensorFlow " << release << '\n';
    return 1;
  }
  std::vector<kernels::RegisteredKernel> kernels;
  json stateful = json::array();
  for (std::string_view name : registry->OpNames()) {
    if (!only.empty() && !only.contains(std::string(name))) continue;
    const ops::OpDef* def = registry->Find(name);
    if (def->is_stateful) stateful.push_back(def->name);
    for (auto& kernel : KernelsOf(*def)) kernels.push_back(std::move(kernel));
  }
  json dump = kernels::GenerateCases(kernels, {}, *registry, {}, seed);
  for (json& kernel_case : dump["cases"]) {
    kernel_case["attrs_digest"] = kernels::AttrsDigest(kernel_case);
    kernel_case["inputs_digest"] = kernels::InputsDigest(kernel_case);
  }
  dump["tensorflow"] = release;
  dump["seed"] = seed;
  dump["stateful"] = std::move(stateful);
  dump["ops"] = registry->size();
  const std::string text = dump.dump() + "\n";
  if (out_path.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(out_path);
  out << text;
  return out ? 0 : 1;
}
