#pragma once
// The op family files (specs/ops/families/*.yaml) as yaml-cpp documents, and the four tables
// built from them: the case families, the same-shape refusals, the ops without a CPU oracle and
// the ops whose half and bfloat16 cases are also judged in float64 (float64_runs.h).
// Each embedded file is parsed once per process for all three (yaml-cpp's parse is the costly
// part: a pass over the 18 files took about a tenth of a second before the kernel tier's first
// unit could start, and each table used to make its own).
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kernels/case_families.h"
#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

// "file:line:col: message", from a 1-based location or a yaml-cpp mark (0-based).
std::string FamilyFileError(const std::string& file, const Location& at,
                            const std::string& message);
std::string FamilyFileError(const std::string& file, const YAML::Mark& mark,
                            const std::string& message);

// Parses `text` into `root`; the error as FamilyFileError gives it, or "" when it parsed.
std::string LoadFamilyFile(std::string_view text, const std::string& file, YAML::Node& root);

// What ParseCaseFamilies, ParseSameShapeRefusals and ParseNoCpuOracle find in a parsed file.
std::variant<std::vector<CaseFamily>, std::string> CaseFamiliesOfDocument(const YAML::Node& root,
                                                                          const std::string& file);
std::variant<std::map<std::string, std::string>, std::string> SameShapeRefusalsOfDocument(
    const YAML::Node& root, const std::string& file);
std::variant<std::map<std::string, std::string>, std::string> NoCpuOracleOfDocument(
    const YAML::Node& root, const std::string& file);

struct FamilyTables {
  std::vector<CaseFamily> families;                        // in file order
  std::map<std::string, std::string> same_shape_refusals;  // op -> kind
  std::map<std::string, std::string> no_cpu_oracle;        // op -> reason
  std::set<std::string> judged_in_float64;                 // ops
};

// The tables of every compiled-in file, built on first use from one parse of each. A file that
// does not parse is a build defect (tests/kernels parse them): it aborts with the error.
const FamilyTables& BuiltinFamilyTables();

}  // namespace conformance::kernels
