#include "kernels/declared_precision.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "kernels/dtype_values.h"
#include "kernels/value_distance.h"
#include "ops/catalogue.h"
#include "scenario/scenario_error.h"
#include "kernels/yaml_location.h"
#include "scenario/schema_keys.h"

namespace conformance::kernels {
namespace {

using scenario::ErrorList;
using scenario::JoinKeys;
using scenario::Suggestion;

const std::vector<std::string> kKeys = {"op", "dtype", "rtol", "atol", "ulp", "reason"};

// The floating dtypes any type attr of `op` allows: the ones a tolerance can apply to.
std::vector<std::string> FloatingDtypesOf(const ops::OpDef& op) {
  std::set<TF_DataType> dtypes;
  for (const ops::AttrDef& attr : op.attrs) {
    if (attr.type != "type") continue;
    for (TF_DataType dtype : ops::AllowedTypes(op, attr.name))
      if (IsFloating(dtype)) dtypes.insert(dtype);
  }
  std::vector<std::string> names;
  for (TF_DataType dtype : dtypes) names.push_back(DtypeName(dtype));
  return names;
}

class EntryParser {
 public:
  explicit EntryParser(ErrorList& errors) : errors_(errors) {}

  std::optional<DeclaredPrecision> Parse(const YAML::Node& entry, const std::string& label) {
    ok_ = true;
    if (!entry.IsMap()) {
      Error(LocationOf(entry), "", "each declaration is a mapping with keys " + JoinKeys(kKeys));
      return std::nullopt;
    }
    DeclaredPrecision d;
    d.source = label + ":" + std::to_string(LocationOf(entry).line);
    for (const auto& pair : entry) {
      const std::string key = pair.first.IsScalar() ? pair.first.Scalar() : "";
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        Error(LocationOf(pair.first), key,
              "unknown key in precision declaration" + Suggestion(key, kKeys) +
                  "; allowed keys: " + JoinKeys(kKeys));
      }
    }
    for (const char* key : {"op", "dtype", "reason"}) {
      if (!entry[key] || !entry[key].IsScalar() || entry[key].Scalar().empty()) {
        Error(LocationOf(entry[key] ? entry[key] : entry), key,
              std::string("missing or empty (every declaration names its op, dtype and the reason "
                          "the vendor accepts the lower precision)"));
      }
    }
    if (!ok_) return std::nullopt;
    d.op = entry["op"].Scalar();
    d.reason = entry["reason"].Scalar();
    const ops::OpDef* op = ops::FindOp(d.op);
    if (op == nullptr) {
      Error(LocationOf(entry["op"]), "op",
            "unknown op '" + d.op + "'" + Suggestion(d.op, ops::BuiltInOpNames()) +
                "; declarations name ops of the op catalogue (specs/ops)");
      return std::nullopt;
    }
    d.dtype = entry["dtype"].Scalar();
    const std::vector<std::string> floating = FloatingDtypesOf(*op);
    if (std::find(floating.begin(), floating.end(), d.dtype) == floating.end()) {
      Error(LocationOf(entry["dtype"]), "dtype",
            d.op + " has no floating dtype '" + d.dtype + "'" + Suggestion(d.dtype, floating) +
                "; precision is declared for " +
                (floating.empty() ? std::string("none of its dtypes") : JoinKeys(floating)) +
                " (other dtypes are compared exactly)");
    }
    if (entry["rtol"]) d.rtol = Bound(entry["rtol"], "rtol");
    if (entry["atol"]) d.atol = Bound(entry["atol"], "atol");
    if (entry["ulp"]) d.ulp = static_cast<std::uint64_t>(Bound(entry["ulp"], "ulp"));
    if (ok_ && d.rtol == 0 && d.atol == 0 && d.ulp == 0) {
      Error(LocationOf(entry), "rtol", "declares no tolerance: give rtol, atol or ulp above 0");
    }
    if (!ok_) return std::nullopt;
    return d;
  }

 private:
  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }

  double Bound(const YAML::Node& node, const std::string& key) {
    double value = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || std::isnan(value) ||
        value < 0 || std::isinf(value) || (key == "ulp" && value != std::floor(value))) {
      Error(LocationOf(node), key,
            key == "ulp" ? "expected a whole number >= 0, got '" + node.Scalar() + "'"
                         : "expected a finite number >= 0, got '" + node.Scalar() + "'");
      return 0;
    }
    return value;
  }

  ErrorList& errors_;
  bool ok_ = true;
};

}  // namespace

std::vector<DeclaredPrecision> ParseDeclaredPrecision(std::string_view text,
                                                      const std::string& label) {
  ErrorList errors(label);
  std::vector<DeclaredPrecision> declarations;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    errors.Add({e.mark.line + 1, e.mark.column + 1}, "", "invalid YAML: " + e.msg);
    throw scenario::ScenarioFilesError(errors.errors());
  }
  if (!root.IsSequence()) {
    errors.Add(LocationOf(root), "",
               "a precision file is a YAML list of {op, dtype, rtol/atol/ulp, reason}");
    throw scenario::ScenarioFilesError(errors.errors());
  }
  EntryParser parser(errors);
  std::map<std::pair<std::string, std::string>, std::string> seen;
  for (const YAML::Node& entry : root) {
    auto declaration = parser.Parse(entry, label);
    if (!declaration) continue;
    const auto key = std::make_pair(declaration->op, declaration->dtype);
    if (auto [it, inserted] = seen.emplace(key, declaration->source); !inserted) {
      errors.Add(
          LocationOf(entry), "op",
          declaration->op + " " + declaration->dtype + " is already declared at " + it->second);
      continue;
    }
    declarations.push_back(std::move(*declaration));
  }
  if (!errors.empty()) throw scenario::ScenarioFilesError(errors.errors());
  return declarations;
}

std::vector<DeclaredPrecision> LoadDeclaredPrecision(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    throw scenario::ScenarioFilesError(
        {{path, {}, "", "--precision: cannot read the file (give a YAML precision file)"}});
  }
  return ParseDeclaredPrecision(text.str(), path);
}

const DeclaredPrecision* FindDeclaration(const std::vector<DeclaredPrecision>& declarations,
                                         const std::string& op, TF_DataType dtype) {
  const std::string name = DtypeName(dtype);
  for (const DeclaredPrecision& d : declarations) {
    if (d.op == op && d.dtype == name) return &d;
  }
  return nullptr;
}

Tolerance Widen(const Tolerance& tolerance, const DeclaredPrecision* declaration) {
  if (declaration == nullptr) return tolerance;
  return Tolerance{.rtol = std::max(tolerance.rtol, declaration->rtol),
                   .atol = std::max(tolerance.atol, declaration->atol),
                   .ulp = std::max(tolerance.ulp, declaration->ulp)};
}

std::string DeclarationText(const DeclaredPrecision& declaration) {
  return ToleranceText(Tolerance{
             .rtol = declaration.rtol, .atol = declaration.atol, .ulp = declaration.ulp}) +
         " (" + declaration.reason + "; " + declaration.source + ")";
}

const std::vector<std::string>& DeclaredPrecisionKeys() { return kKeys; }

}  // namespace conformance::kernels
