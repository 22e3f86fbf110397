// op_coverage [--cases FILE] [--ops A,B,...] [--family-ops] [--every-dtype] [OUT]: how far the
// generated kernel cases reach over TensorFlow 2.21.0's op registry (registry_coverage.h). Writes
// docs/kernels/op_coverage.md's text to OUT (default: standard output). --cases also writes the
// cells' generated cases as JSON ({"cases": [...]}), every allowed dtype with --every-dtype, only
// for the --ops given (--family-ops: every op of the built-in families, case_families.h): what
// tests/tensorflow_oracle/generated_cases_in_cpu.py runs on TensorFlow's CPU to count the cases it
// rejects.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/case_families.h"
#include "kernels/dtype_values.h"
#include "kernels/generated_cases.h"
#include "kernels/recorded_oracle.h"
#include "kernels/registry_coverage.h"
#include "ops/registry.h"

namespace {

using namespace conformance;

constexpr const char* kUsage =
    "usage: op_coverage [--cases FILE] [--ops A,B,...] [--family-ops] [--every-dtype] [OUT]\n";
constexpr std::uint64_t kSeed = 1;

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

bool WriteText(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return true;
  }
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, cases_path;
  std::vector<std::string> only;
  bool every_dtype = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cases" && i + 1 < argc) {
      cases_path = argv[++i];
    } else if (arg == "--ops" && i + 1 < argc) {
      only = Split(argv[++i]);
    } else if (arg == "--family-ops") {
      for (const kernels::CaseFamily& family : kernels::BuiltinCaseFamilies())
        only.insert(only.end(), family.ops.begin(), family.ops.end());
    } else if (arg == "--every-dtype") {
      every_dtype = true;
    } else if (arg.starts_with("-") || !out.empty()) {
      std::cerr << kUsage;
      return 2;
    } else {
      out = arg;
    }
  }
  const ops::OpRegistry* registry = ops::FindOpRegistry("2.21.0");
  if (registry == nullptr) {
    std::cerr << "op_coverage: no TensorFlow 2.21.0 registry is embedded\n";
    return 1;
  }
  if (!cases_path.empty()) {
    std::vector<TF_DataType> dtypes;
    for (const std::string& name : kernels::ScenarioDtypeNames())
      dtypes.push_back(*kernels::DtypeFromName(name));
    // Quantized cells only for the ops of quantized_families.yaml, as the record has them
    // (record_case_dump): an op of any dtype (XlaPad, SparseReorder) is not measured at them.
    std::vector<TF_DataType> unquantized;
    std::copy_if(dtypes.begin(), dtypes.end(), std::back_inserter(unquantized),
                 [](TF_DataType dtype) { return !kernels::IsQuantized(dtype); });
    const auto quantized_family = [](std::string_view op) {
      const auto families = kernels::FamiliesOf(op);
      return std::any_of(families.begin(), families.end(), [](const kernels::CaseFamily* family) {
        return family->file.ends_with("quantized_families.yaml");
      });
    };
    std::vector<kernels::RegisteredKernel> cells;
    for (std::string_view name : registry->OpNames()) {
      if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
      for (auto& kernel : kernels::RegistryKernels(
               *registry->Find(name), quantized_family(name) ? dtypes : unquantized, every_dtype))
        cells.push_back(std::move(kernel));
    }
    // Measuring: the ops TensorFlow's CPU refused last time are measured again too.
    nlohmann::json generated =
        kernels::GenerateCases(cells, {}, *registry, {}, kSeed, /*measuring=*/true);
    // The record's key for a case's attrs (families_in_record.py matches cases to entries by it).
    for (nlohmann::json& kernel_case : generated["cases"])
      kernel_case["attrs_digest"] = kernels::AttrsDigest(kernel_case);
    if (!WriteText(cases_path, generated.dump())) {
      std::cerr << "op_coverage: cannot write " << cases_path << "\n";
      return 1;
    }
    if (out.empty()) return 0;
  }
  const auto coverage = kernels::RegistryCoverage(*registry, kSeed);
  if (!WriteText(out, kernels::CoveragePage(*registry, coverage))) {
    std::cerr << "op_coverage: cannot write " << out << "\n";
    return 1;
  }
  return 0;
}
