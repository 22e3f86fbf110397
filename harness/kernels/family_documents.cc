#include "kernels/family_documents.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "kernels/float64_runs.h"

namespace conformance::kernel_family_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}  // namespace conformance::kernel_family_data

namespace conformance::kernels {
namespace {

// The table's value, or the file's error on standard error and an abort.
template <typename Table>
Table OrAbort(std::variant<Table, std::string> parsed, const char* what) {
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    std::fprintf(stderr, "built-in %s: %s\n", what, error->c_str());
    std::abort();
  }
  return std::get<Table>(std::move(parsed));
}

}  // namespace

std::string FamilyFileError(const std::string& file, const Location& at,
                            const std::string& message) {
  return file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + message;
}

std::string FamilyFileError(const std::string& file, const YAML::Mark& mark,
                            const std::string& message) {
  return FamilyFileError(file, Location{mark.line + 1, mark.column + 1}, message);
}

std::string LoadFamilyFile(std::string_view text, const std::string& file, YAML::Node& root) {
  try {
    root = YAML::Load(std::string(text));
    return "";
  } catch (const YAML::Exception& error) {
    return FamilyFileError(file, error.mark, error.msg);
  }
}

const FamilyTables& BuiltinFamilyTables() {
  static const FamilyTables tables = [] {
    FamilyTables all;
    for (const auto& [path, text] : kernel_family_data::EmbeddedFiles()) {
      const std::string file(path);
      YAML::Node root;
      if (std::string error = LoadFamilyFile(text, file, root); !error.empty()) {
        std::fprintf(stderr, "built-in op family file: %s\n", error.c_str());
        std::abort();
      }
      for (CaseFamily& family : OrAbort(CaseFamiliesOfDocument(root, file), "case families"))
        all.families.push_back(std::move(family));
      all.same_shape_refusals.merge(
          OrAbort(SameShapeRefusalsOfDocument(root, file), "same-shape refusals"));
      all.no_cpu_oracle.merge(OrAbort(NoCpuOracleOfDocument(root, file), "no-CPU-oracle ops"));
      all.judged_in_float64.merge(
          OrAbort(JudgedInFloat64OfDocument(root, file), "ops judged in float64"));
    }
    return all;
  }();
  return tables;
}

}  // namespace conformance::kernels
