#include "ops/op_compare.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <variant>

#include "core/datatype.h"

namespace conformance::ops {
namespace {

std::string ArgText(const ArgDef& arg) {
  std::string type = arg.type ? core::DataTypeName(*arg.type)
                              : (arg.type_list_attr.empty() ? arg.type_attr : arg.type_list_attr);
  if (!arg.number_attr.empty()) type = arg.number_attr + " * " + type;
  if (arg.is_ref) type = "Ref(" + type + ")";
  return arg.name + ": " + type;
}

void CompareArgs(const char* kind, const std::vector<ArgDef>& ours,
                 const std::vector<ArgDef>& theirs, std::vector<std::string>& out) {
  std::vector<std::string> a, b;
  for (const auto& arg : ours) a.push_back(ArgText(arg));
  for (const auto& arg : theirs) b.push_back(ArgText(arg));
  if (a == b) return;
  auto join = [](const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return "[" + text + "]";
  };
  out.push_back(std::string(kind) + " " + join(a) + ", TensorFlow's " + join(b));
}

// A default as comparable text: the parsed value where there is one, the text otherwise.
std::string DefaultKey(const AttrDef& attr) {
  if (!attr.default_text) return "(none)";
  const core::AttrValue& value = attr.default_value;
  if (const auto* s = std::get_if<std::string>(&value)) return "s:" + *s;
  if (const auto* i = std::get_if<int64_t>(&value)) return "i:" + std::to_string(*i);
  if (const auto* f = std::get_if<float>(&value)) return "f:" + std::to_string(*f);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "b:true" : "b:false";
  if (const auto* t = std::get_if<TF_DataType>(&value)) return "t:" + core::DataTypeName(*t);
  if (const auto* list = std::get_if<core::AttrList>(&value)) {
    std::string key = "list:";
    for (const auto& s : list->s) key += "s" + s + ",";
    for (const auto i : list->i) key += "i" + std::to_string(i) + ",";
    for (const auto f : list->f) key += "f" + std::to_string(f) + ",";
    for (const bool b : list->b) key += b ? "btrue," : "bfalse,";
    for (const auto t : list->type) key += "t" + core::DataTypeName(t) + ",";
    return key;
  }
  return "text:" + *attr.default_text;
}

std::string TypeSetDifference(const std::set<TF_DataType>& only, const char* whose) {
  std::string names;
  for (const auto dtype : only) names += (names.empty() ? "" : ", ") + core::DataTypeName(dtype);
  return "allows " + names + " only in " + whose;
}

void CompareAttr(const AttrDef& ours, const AttrDef& theirs, std::vector<std::string>& out) {
  const std::string where = "attr " + ours.name + ": ";
  if (ours.type != theirs.type) {
    out.push_back(where + "type " + ours.type + ", TensorFlow's " + theirs.type);
    return;
  }
  const std::set<TF_DataType> a(ours.allowed_types.begin(), ours.allowed_types.end());
  const std::set<TF_DataType> b(theirs.allowed_types.begin(), theirs.allowed_types.end());
  std::set<TF_DataType> only_ours, only_theirs;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(),
                      std::inserter(only_ours, only_ours.end()));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(),
                      std::inserter(only_theirs, only_theirs.end()));
  if (!only_ours.empty()) out.push_back(where + TypeSetDifference(only_ours, "ours"));
  if (!only_theirs.empty()) out.push_back(where + TypeSetDifference(only_theirs, "TensorFlow's"));
  const std::set<std::string> sa(ours.allowed_strings.begin(), ours.allowed_strings.end());
  const std::set<std::string> sb(theirs.allowed_strings.begin(), theirs.allowed_strings.end());
  if (sa != sb) out.push_back(where + "allowed strings differ");
  if (ours.minimum != theirs.minimum) out.push_back(where + "minimum differs");
  if (DefaultKey(ours) != DefaultKey(theirs)) {
    out.push_back(where + "default " + ours.default_text.value_or("(none)") + ", TensorFlow's " +
                  theirs.default_text.value_or("(none)"));
  }
}

}  // namespace

std::vector<std::string> DefinitionDifferences(const OpDef& ours, const OpDef& tensorflow) {
  std::vector<std::string> out;
  if (ours.name != tensorflow.name) out.push_back("op " + ours.name + " is " + tensorflow.name);
  CompareArgs("inputs", ours.inputs, tensorflow.inputs, out);
  CompareArgs("outputs", ours.outputs, tensorflow.outputs, out);
  for (const auto& attr : ours.attrs) {
    const AttrDef* theirs = tensorflow.FindAttr(attr.name);
    if (theirs == nullptr) {
      out.push_back("attr " + attr.name + ": not an attr of TensorFlow's op");
    } else {
      CompareAttr(attr, *theirs, out);
    }
  }
  for (const auto& attr : tensorflow.attrs) {
    if (ours.FindAttr(attr.name) == nullptr) out.push_back("attr " + attr.name + ": missing");
  }
  return out;
}

}  // namespace conformance::ops
