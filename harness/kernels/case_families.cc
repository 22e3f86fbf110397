#include "kernels/case_families.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "kernels/dtype_values.h"
#include "kernels/family_documents.h"
#include "kernels/family_fills.h"
#include "kernels/yaml_location.h"
#include "scenario/status_codes.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// A parse error at a node: "file:line:col: message" once the file is known.
struct FamilyError : std::runtime_error {
  FamilyError(const YAML::Node& node, const std::string& message)
      : std::runtime_error(message), at(LocationOf(node)) {}
  Location at;
};

void ExpectKeys(const YAML::Node& map, const std::set<std::string>& allowed, const char* what) {
  if (!map.IsMap()) throw FamilyError(map, std::string(what) + " must be a mapping");
  for (const auto& entry : map) {
    const std::string key = entry.first.as<std::string>();
    if (!allowed.contains(key)) {
      std::string known;
      for (const std::string& name : allowed) known += (known.empty() ? "" : ", ") + name;
      throw FamilyError(entry.first,
                        "unknown key '" + key + "' in " + what + " (known: " + known + ")");
    }
  }
}

std::int64_t Integer(const YAML::Node& node) {
  try {
    return node.as<std::int64_t>();
  } catch (const YAML::Exception&) {
    throw FamilyError(node, "expected an integer, got '" + node.Scalar() + "'");
  }
}

std::vector<std::int64_t> Integers(const YAML::Node& node) {
  if (node.IsScalar()) return {Integer(node)};
  if (!node.IsSequence()) throw FamilyError(node, "expected an integer or a list of integers");
  std::vector<std::int64_t> values;
  for (const YAML::Node& item : node) values.push_back(Integer(item));
  return values;
}

core::Shape ShapeOf(const YAML::Node& node) {
  if (!node.IsSequence()) throw FamilyError(node, "a shape is a list of dimensions");
  core::Shape shape;
  for (const YAML::Node& dim : node) {
    const std::int64_t size = Integer(dim);
    if (size < 0) throw FamilyError(dim, "a dimension is at least 0");
    shape.push_back(size);
  }
  return shape;
}

// A literal's shape, from the nesting along its first elements.
void NestedShape(const YAML::Node& node, core::Shape& shape) {
  if (!node.IsSequence()) return;
  shape.push_back(static_cast<std::int64_t>(node.size()));
  if (node.size() > 0) NestedShape(node[0], shape);
}

// A literal's elements row-major; every row must have the shape's length and depth.
void Flatten(const YAML::Node& node, std::size_t depth, const core::Shape& shape,
             std::vector<double>& values) {
  if (depth == shape.size()) {
    if (!node.IsScalar()) throw FamilyError(node, "a literal's rows differ in depth");
    try {
      values.push_back(node.as<double>());
    } catch (const YAML::Exception&) {
      throw FamilyError(node, "expected a number, got '" + node.Scalar() + "'");
    }
    return;
  }
  if (!node.IsSequence() || static_cast<std::int64_t>(node.size()) != shape[depth])
    throw FamilyError(node, "a literal's rows differ in length or depth");
  for (const YAML::Node& item : node) Flatten(item, depth + 1, shape, values);
}

// A text literal's elements row-major, as Flatten's.
void FlattenText(const YAML::Node& node, std::size_t depth, const core::Shape& shape,
                 std::vector<std::string>& values) {
  if (depth == shape.size()) {
    if (!node.IsScalar()) throw FamilyError(node, "a literal's rows differ in depth");
    values.push_back(node.Scalar());
    return;
  }
  if (!node.IsSequence() || static_cast<std::int64_t>(node.size()) != shape[depth])
    throw FamilyError(node, "a literal's rows differ in length or depth");
  for (const YAML::Node& item : node) FlattenText(item, depth + 1, shape, values);
}

// The bytes a `hex:` element spells, two digits a byte (an encoded image, a serialized proto).
std::string BytesOfHex(const YAML::Node& node, const std::string& hex) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  // Spaces are skipped: a long encoding is a plain scalar over several lines, which YAML folds
  // into one with spaces.
  std::string digits;
  for (char c : hex) {
    if (c != ' ') digits.push_back(c);
  }
  if (digits.size() % 2 != 0) throw FamilyError(node, "`hex:` needs two digits a byte");
  std::string bytes;
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    const int high = digit(digits[i]);
    const int low = digit(digits[i + 1]);
    if (high < 0 || low < 0) {
      throw FamilyError(node, "`hex:` holds hex digits only, not '" + digits.substr(i, 2) + "'");
    }
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

FamilyInput ParseInput(const YAML::Node& node) {
  ExpectKeys(node,
             {"shape", "fill", "value", "text", "hex", "below", "sorted", "variable", "dtype"},
             "an input");
  FamilyInput input;
  input.at = LocationOf(node);
  if (node["variable"]) input.variable = node["variable"].as<bool>();
  if (node["dtype"]) {
    if (!input.variable) throw FamilyError(node["dtype"], "`dtype:` is a variable's own dtype");
    input.dtype = DtypeFromName(node["dtype"].Scalar());
    if (!input.dtype) throw FamilyError(node["dtype"], "no dtype the suite has values for");
  }
  // A string input's elements as text, or as the hex of their bytes (YAML's text cannot hold
  // arbitrary bytes: its \x escapes are characters, written as UTF-8).
  for (const char* key : {"text", "hex"}) {
    if (!node[key]) continue;
    if (node["shape"] || node["fill"] || node["below"] || node["value"] ||
        (node["text"] && node["hex"]))
      throw FamilyError(node, std::string("an input is a `") + key + ":` alone");
    core::Shape shape;
    std::vector<std::string> values;
    NestedShape(node[key], shape);
    FlattenText(node[key], 0, shape, values);
    if (std::string(key) == "hex") {
      for (std::string& value : values) value = BytesOfHex(node[key], value);
    }
    input.shape = shape;
    input.text = values;
    return input;
  }
  if (node["value"]) {
    if (node["shape"] || node["fill"] || node["below"])
      throw FamilyError(node, "an input is a `value:` or a `shape:`, not both");
    core::Shape shape;
    std::vector<double> values;
    NestedShape(node["value"], shape);
    Flatten(node["value"], 0, shape, values);
    input.shape = shape;
    input.literal = values;
    return input;
  }
  if (!node["shape"]) throw FamilyError(node, "an input needs `shape:` or `value:`");
  input.shape = ShapeOf(node["shape"]);
  if (node["fill"]) {
    input.fill = node["fill"].as<std::string>();
    if (!IsFillName(input.fill)) {
      throw FamilyError(node["fill"],
                        "unknown fill '" + input.fill + "' (known: " + FillNamesText() + ")");
    }
  }
  if (node["below"]) {
    input.below = Integers(node["below"]);
    for (std::int64_t bound : input.below) {
      if (bound < 1) throw FamilyError(node["below"], "`below:` bounds are at least 1");
    }
  }
  if (node["sorted"]) {
    input.sorted = node["sorted"].as<bool>();
    if (input.below.empty()) throw FamilyError(node["sorted"], "`sorted:` needs `below:`");
  }
  return input;
}

// An input, or a list input tensor by tensor (`args: [{shape: [3]}, {shape: [3]}]`).
FamilyInput ParseListOrInput(const YAML::Node& node) {
  if (!node.IsSequence()) return ParseInput(node);
  FamilyInput list;
  list.at = LocationOf(node);
  for (const YAML::Node& element : node) {
    if (element.IsSequence()) throw FamilyError(element, "a list input's element is one input");
    list.elements.push_back(ParseInput(element));
  }
  return list;
}

// A YAML attr value as JSON; generated_cases.cc types it by the op's attr.
json AttrValue(const YAML::Node& node) {
  if (node.IsSequence()) {
    json list = json::array();
    for (const YAML::Node& item : node) list.push_back(AttrValue(item));
    return list;
  }
  if (!node.IsScalar()) throw FamilyError(node, "an attr value is a scalar or a list");
  const std::string& text = node.Scalar();
  // A quoted scalar is text (AsString's fill: "0"), whatever it spells.
  if (node.Tag() == "!") return text;
  if (text == "true" || text == "false") return text == "true";
  try {
    std::size_t used = 0;
    const long long whole = std::stoll(text, &used);
    if (used == text.size()) return whole;
    const double number = std::stod(text, &used);
    if (used == text.size()) return number;
  } catch (const std::exception&) {
  }
  return text;
}

FamilyCase ParseCase(const YAML::Node& node) {
  ExpectKeys(node, {"variant", "inputs", "attrs", "dtypes", "cpu_status"}, "a case");
  FamilyCase family_case;
  family_case.at = LocationOf(node);
  if (!node["variant"]) throw FamilyError(node, "a case needs `variant:` (its name in reports)");
  family_case.variant = node["variant"].as<std::string>();
  if (!node["inputs"] || !node["inputs"].IsMap())
    throw FamilyError(node, "a case needs `inputs:`, a mapping by input name");
  for (const auto& entry : node["inputs"])
    family_case.inputs[entry.first.as<std::string>()] = ParseListOrInput(entry.second);
  if (const YAML::Node dtypes = node["dtypes"]) {
    std::vector<YAML::Node> names;
    if (dtypes.IsSequence()) {
      for (const YAML::Node& name : dtypes) names.push_back(name);
    } else {
      names.push_back(dtypes);
    }
    for (const YAML::Node& name : names) {
      const std::string text = name.as<std::string>();
      if (text != "floating" && text != "integer" && text != "complex" && !DtypeFromName(text))
        throw FamilyError(
            name, "`dtypes:` holds dtype names, floating, integer or complex, not '" + text + "'");
      family_case.dtypes.push_back(text);
    }
  }
  if (const YAML::Node status = node["cpu_status"]) {
    family_case.cpu_status = status.as<std::string>();
    if (!scenario::CodeFromName(family_case.cpu_status)) {
      throw FamilyError(status, "`cpu_status:` is a status code name (INVALID_ARGUMENT), not '" +
                                    family_case.cpu_status + "'");
    }
  }
  if (node["attrs"]) {
    if (!node["attrs"].IsMap()) throw FamilyError(node["attrs"], "`attrs:` is a mapping");
    for (const auto& entry : node["attrs"]) {
      // A mapping is a tensor attr's value, spelled as an input's.
      if (entry.second.IsMap()) {
        family_case.tensor_attrs[entry.first.as<std::string>()] = ParseInput(entry.second);
        continue;
      }
      family_case.attrs[entry.first.as<std::string>()] = AttrValue(entry.second);
    }
  }
  return family_case;
}

CaseFamily ParseFamily(const YAML::Node& node, const std::string& file) {
  ExpectKeys(node,
             {"family", "ops", "cases", "no_variants", "unjudged_outputs", "undefined_values",
              "tolerance"},
             "a family");
  CaseFamily family;
  family.file = file;
  family.at = LocationOf(node);
  if (!node["family"]) throw FamilyError(node, "a family needs `family:` (its name)");
  family.name = node["family"].as<std::string>();
  if (!node["ops"] || !node["ops"].IsSequence() || node["ops"].size() == 0)
    throw FamilyError(node, "a family needs `ops:`, a list of op names");
  for (const YAML::Node& op : node["ops"]) family.ops.push_back(op.as<std::string>());
  if (!node["cases"] || !node["cases"].IsSequence() || node["cases"].size() == 0)
    throw FamilyError(node, "a family needs `cases:`, a list");
  if (node["cases"].size() > kMaxFamilyCases) {
    throw FamilyError(node["cases"], "a family has at most " + std::to_string(kMaxFamilyCases) +
                                         " cases (a cell's cases stay few)");
  }
  for (const YAML::Node& item : node["cases"]) family.cases.push_back(ParseCase(item));
  if (node["tolerance"]) {
    if (!node["tolerance"].IsMap())
      throw FamilyError(node["tolerance"], "`tolerance:` is a mapping by dtype");
    for (const auto& entry : node["tolerance"]) {
      const std::string name = entry.first.as<std::string>();
      const auto dtype = DtypeFromName(name);
      if (!dtype) throw FamilyError(entry.first, "unknown dtype '" + name + "'");
      ExpectKeys(entry.second, {"rtol", "atol", "ulp"}, "a tolerance");
      Tolerance tolerance;
      if (entry.second["rtol"]) tolerance.rtol = entry.second["rtol"].as<double>();
      if (entry.second["atol"]) tolerance.atol = entry.second["atol"].as<double>();
      if (entry.second["ulp"]) tolerance.ulp = entry.second["ulp"].as<std::uint64_t>();
      family.tolerances[*dtype] = tolerance;
    }
  }
  if (node["no_variants"]) {
    if (!node["no_variants"].IsSequence())
      throw FamilyError(node["no_variants"], "`no_variants:` is a list of attr names");
    for (const YAML::Node& attr : node["no_variants"])
      family.no_variants.push_back(attr.as<std::string>());
  }
  if (node["unjudged_outputs"]) {
    if (!node["unjudged_outputs"].IsSequence())
      throw FamilyError(node["unjudged_outputs"], "`unjudged_outputs:` is a list of output names");
    for (const YAML::Node& output : node["unjudged_outputs"])
      family.unjudged_outputs.push_back(output.as<std::string>());
  }
  if (node["undefined_values"]) {
    if (!node["undefined_values"].IsSequence())
      throw FamilyError(node["undefined_values"], "`undefined_values:` is a list of output names");
    for (const YAML::Node& output : node["undefined_values"])
      family.undefined_values.push_back(output.as<std::string>());
  }
  return family;
}

}  // namespace

std::variant<std::vector<CaseFamily>, std::string> CaseFamiliesOfDocument(const YAML::Node& root,
                                                                          const std::string& file) {
  try {
    ExpectKeys(root, {"families", "same_shape_refusals", "no_cpu_oracle", "judged_in_float64"},
               "the file");
    std::vector<CaseFamily> families;
    if (!root["families"]) return families;
    if (!root["families"].IsSequence()) throw FamilyError(root, "`families:` is a list");
    for (const YAML::Node& node : root["families"]) families.push_back(ParseFamily(node, file));
    return families;
  } catch (const FamilyError& error) {
    return FamilyFileError(file, error.at, error.what());
  } catch (const YAML::Exception& error) {
    return FamilyFileError(file, error.mark, error.msg);
  }
}

std::variant<std::map<std::string, std::string>, std::string> SameShapeRefusalsOfDocument(
    const YAML::Node& root, const std::string& file) {
  try {
    std::map<std::string, std::string> refusals;
    const YAML::Node groups = root["same_shape_refusals"];
    if (!groups) return refusals;
    ExpectKeys(groups, {"rejected", "fatal", "no_cpu_kernel"}, "`same_shape_refusals:`");
    for (const auto& entry : groups) {
      if (!entry.second.IsSequence() && !entry.second.IsNull())
        throw FamilyError(entry.second, "a list of op names");
      for (const YAML::Node& op : entry.second)
        refusals[op.as<std::string>()] = entry.first.as<std::string>();
    }
    return refusals;
  } catch (const FamilyError& error) {
    return FamilyFileError(file, error.at, error.what());
  } catch (const YAML::Exception& error) {
    return FamilyFileError(file, error.mark, error.msg);
  }
}

std::variant<std::vector<CaseFamily>, std::string> ParseCaseFamilies(std::string_view text,
                                                                     const std::string& file) {
  YAML::Node root;
  if (std::string error = LoadFamilyFile(text, file, root); !error.empty()) return error;
  return CaseFamiliesOfDocument(root, file);
}

std::variant<std::map<std::string, std::string>, std::string> ParseSameShapeRefusals(
    std::string_view text, const std::string& file) {
  YAML::Node root;
  if (std::string error = LoadFamilyFile(text, file, root); !error.empty()) return error;
  return SameShapeRefusalsOfDocument(root, file);
}

const std::map<std::string, std::string>& BuiltinSameShapeRefusals() {
  return BuiltinFamilyTables().same_shape_refusals;
}

const std::vector<CaseFamily>& BuiltinCaseFamilies() { return BuiltinFamilyTables().families; }

std::vector<const CaseFamily*> FamiliesOf(std::string_view op) {
  std::vector<const CaseFamily*> found;
  for (const CaseFamily& family : BuiltinCaseFamilies()) {
    if (std::find(family.ops.begin(), family.ops.end(), op) != family.ops.end())
      found.push_back(&family);
  }
  return found;
}

bool FamiliesMakeVariables(const ops::OpDef& def) {
  const std::vector<const CaseFamily*> families = FamiliesOf(def.name);
  bool any = false;
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.is_ref && input.type != TF_RESOURCE) continue;
    any = true;
    for (const CaseFamily* family : families) {
      for (const FamilyCase& family_case : family->cases) {
        const auto found = family_case.inputs.find(input.name);
        if (found == family_case.inputs.end() || !found->second.variable) return false;
      }
    }
  }
  return any && !families.empty();
}

std::string TypeListCellAttr(const ops::OpDef& def) {
  if (def.inputs.empty() || FamiliesOf(def.name).empty()) return "";
  for (const ops::ArgDef& input : def.inputs) {
    if (!input.type_attr.empty()) return "";
  }
  for (const ops::ArgDef& output : def.outputs) {
    if (!output.type_attr.empty()) return "";  // it names the cells (RaggedCross's, _ListToArray's)
  }
  return def.inputs.front().type_list_attr;
}

std::optional<TF_DataType> FamiliesVariableDtype(const ops::OpDef& def, const std::string& input) {
  std::optional<TF_DataType> given;
  bool every = true;
  for (const CaseFamily* family : FamiliesOf(def.name)) {
    for (const FamilyCase& family_case : family->cases) {
      const auto found = family_case.inputs.find(input);
      const std::optional<TF_DataType> dtype =
          found == family_case.inputs.end() ? std::nullopt : found->second.dtype;
      every = every && dtype.has_value() && (!given || *given == *dtype);
      if (dtype) given = dtype;
    }
  }
  return every ? given : std::nullopt;
}

}  // namespace conformance::kernels
