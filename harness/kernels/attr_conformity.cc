#include "kernels/attr_conformity.h"

#include <algorithm>
#include <variant>
#include <vector>

#include "core/datatype.h"
#include "kernels/dtype_values.h"
#include "ops/catalogue.h"
#include "scenario/schema_keys.h"

namespace conformance::kernels {
namespace {

using scenario::JoinKeys;
using scenario::Location;
using scenario::Suggestion;

std::vector<std::string> AllowedDtypeNames(const std::vector<TF_DataType>& dtypes) {
  std::vector<std::string> names;
  names.reserve(dtypes.size());
  for (TF_DataType dtype : dtypes) names.push_back(core::DataTypeName(dtype));
  return names;
}

// "7", "true", "[1, 2]", "{type: int32}": the value as the scenario wrote it, roughly.
std::string ValueText(const core::AttrValue& value) {
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* f = std::get_if<float>(&value)) return std::to_string(*f);
  if (const auto* s = std::get_if<std::string>(&value)) return "'" + *s + "'";
  if (const auto* t = std::get_if<TF_DataType>(&value)) return "{type: " + DtypeName(*t) + "}";
  if (std::holds_alternative<core::AttrList>(value)) return "a list";
  return "a value";
}

// A YAML whole number written for a float attr (`alpha: 1`) means 1.0.
void WidenIntegersForFloatAttr(const ops::AttrDef& attr, core::AttrValue& value) {
  if (attr.type == "float") {
    if (const auto* i = std::get_if<int64_t>(&value)) value = static_cast<float>(*i);
  } else if (attr.type == "list(float)") {
    if (auto* list = std::get_if<core::AttrList>(&value); list && !list->i.empty()) {
      for (int64_t i : list->i) list->f.push_back(static_cast<float>(i));
      list->i.clear();
    }
  }
}

std::string ExampleOf(const ops::AttrDef& attr) {
  const std::string& type = attr.type;
  if (type == "bool") return " (write true or false)";
  if (type == "type") return " (write {type: float})";
  if (type == "string") return " (write it as text)";
  if (type.starts_with("list(")) return " (write a list, e.g. [1, 2])";
  return "";
}

class AttrConformity {
 public:
  AttrConformity(const ops::OpDef& op, scenario::ErrorList& errors) : op_(op), errors_(errors) {}

  void CheckValue(const ops::AttrDef& attr, const core::AttrValue& value, Location at) {
    if (!core::AttrValueHasType(value, attr.type).ok()) {
      Error(at, attr.name,
            "attr '" + attr.name + "' of " + op_.name + " is a " + attr.type + ", got " +
                ValueText(value) + ExampleOf(attr));
      return;
    }
    if (const auto* text = std::get_if<std::string>(&value);
        text && !attr.allowed_strings.empty()) {
      const auto& allowed = attr.allowed_strings;
      if (std::find(allowed.begin(), allowed.end(), *text) == allowed.end()) {
        Error(at, attr.name,
              "attr '" + attr.name + "' of " + op_.name + " does not allow '" + *text + "'" +
                  Suggestion(*text, allowed) + "; it allows " + JoinKeys(allowed));
      }
    }
    if (const auto* dtype = std::get_if<TF_DataType>(&value)) {
      const std::vector<TF_DataType> allowed = ops::AllowedTypes(op_, attr.name);
      if (std::find(allowed.begin(), allowed.end(), *dtype) == allowed.end()) {
        Error(at, attr.name,
              "attr '" + attr.name + "' of " + op_.name + " does not allow " + DtypeName(*dtype) +
                  "; it allows " + JoinKeys(AllowedDtypeNames(allowed)));
      }
    }
  }

  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }

  bool ok() const { return ok_; }

 private:
  const ops::OpDef& op_;
  scenario::ErrorList& errors_;
  bool ok_ = true;
};

}  // namespace

bool ConformAttrs(const ops::OpDef& op, core::AttrMap& attrs,
                  const std::map<std::string, Location>& attr_at, Location at,
                  scenario::ErrorList& errors) {
  AttrConformity check(op, errors);
  std::vector<std::string> names;
  for (const ops::AttrDef& attr : op.attrs) names.push_back(attr.name);
  for (auto& [name, value] : attrs) {
    const auto written = attr_at.find(name);
    const Location where = written != attr_at.end() ? written->second : at;
    const ops::AttrDef* attr = op.FindAttr(name);
    if (attr == nullptr) {
      check.Error(where, name,
                  op.name + " has no attr '" + name + "'" + Suggestion(name, names) +
                      "; its attrs: " + (names.empty() ? "none" : JoinKeys(names)));
      continue;
    }
    WidenIntegersForFloatAttr(*attr, value);
    check.CheckValue(*attr, value, where);
  }
  // TensorFlow refuses a node without a value for an attr that has no default.
  for (const ops::AttrDef& attr : op.attrs) {
    if (attr.default_text || attr.element_type() == "type" || attrs.contains(attr.name)) continue;
    check.Error(at, "attrs",
                op.name + " needs attr '" + attr.name + "' (a " + attr.type +
                    ", no default); add it under attrs" + ExampleOf(attr));
  }
  return check.ok();
}

}  // namespace conformance::kernels
