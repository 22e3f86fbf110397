#include "ops/op_summary.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

#include "core/datatype.h"

namespace conformance::ops {
namespace {

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

// "DT_FLOAT": the DataType enum's name, as the summary spells types in attr values.
std::string EnumName(TF_DataType dtype) {
  std::string name = "DT_";
  for (char c : core::DataTypeName(dtype))
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// A string value: C-escaped and double-quoted; a long one keeps its first and last 10
// characters around "...".
std::string SummarizeString(const std::string& value) {
  std::string escaped;
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '\t': escaped += "\\t"; break;
      case '"': escaped += "\\\""; break;
      case '\'': escaped += "\\'"; break;
      case '\\': escaped += "\\\\"; break;
      default:
        if (byte < 0x20 || byte >= 0x7F) {
          char octal[5];
          std::snprintf(octal, sizeof octal, "\\%03o", byte);
          escaped += octal;
        } else {
          escaped += c;
        }
    }
  }
  constexpr std::size_t kLongString = 80, kKept = 10;
  if (escaped.size() >= kLongString) {
    escaped = escaped.substr(0, kKept) + "..." + escaped.substr(escaped.size() - kKept);
  }
  return "\"" + escaped + "\"";
}

// A float as six significant digits, the way TensorFlow prints attr values ("0.0001", "1e-05").
std::string SummarizeFloat(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
  return text;
}

// The protobuf text of a shape or tensor default, as the registry keeps it ("{ dim { size: 2 }
// }"), split into its words with the braces as words of their own.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(word);
    word.clear();
  };
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      flush();
    } else if (c == '{' || c == '}') {
      flush();
      words.emplace_back(1, c);
    } else {
      word += c;
    }
  }
  flush();
  return words;
}

// The dim sizes after each "size:" word, or nullopt for "unknown_rank: true".
std::optional<std::vector<int64_t>> ShapeDims(const std::vector<std::string>& words) {
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "unknown_rank:" && words[i + 1] == "true") return std::nullopt;
    if (words[i] == "size:") dims.push_back(std::stoll(words[i + 1]));
  }
  return dims;
}

std::string ShapeText(const std::optional<std::vector<int64_t>>& dims) {
  if (!dims) return "<unknown>";
  std::vector<std::string> sizes;
  for (const int64_t size : *dims) sizes.push_back(size < 0 ? "?" : std::to_string(size));
  return "[" + Join(sizes, ",") + "]";
}

// "Tensor<type: uint8 shape: [4] values: 255 0 0...>": dtype, shape and the first 3 values
// (a proto holding fewer values than elements repeats its last one).
std::string TensorText(const std::vector<std::string>& words) {
  std::string dtype;
  std::vector<std::string> values;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "dtype:") dtype = words[i + 1];
    if (words[i].size() > 5 && words[i].ends_with("_val:")) values.push_back(words[i + 1]);
  }
  const auto dims = ShapeDims(words);
  int64_t elements = 1;
  for (const int64_t size : dims.value_or(std::vector<int64_t>{})) elements *= size;
  std::string type = dtype.starts_with("DT_") ? dtype.substr(3) : dtype;
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  constexpr int64_t kShown = 3;
  std::vector<std::string> shown;
  for (int64_t i = 0; i < std::min(elements, kShown) && !values.empty(); ++i) {
    shown.push_back(values[std::min<std::size_t>(static_cast<std::size_t>(i), values.size() - 1)]);
  }
  return "Tensor<type: " + type + " shape: " + ShapeText(dims) + " values: " + Join(shown, " ") +
         (elements > kShown ? "..." : "") + ">";
}

// The elements of a list default's text "[{ ... }, { ... }]": each top-level brace group.
std::vector<std::string> BraceGroups(std::string_view text) {
  std::vector<std::string> groups;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && depth++ == 0) start = i;
    if (text[i] == '}' && --depth == 0) groups.emplace_back(text.substr(start, i - start + 1));
  }
  return groups;
}

// A shape, tensor or func default, from the registry's protobuf text.
std::string ProtoText(std::string_view element, std::string_view text) {
  const std::vector<std::string> words = Words(text);
  if (element == "shape") return ShapeText(ShapeDims(words));
  if (element == "tensor") return TensorText(words);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {  // func: its name
    if (words[i] == "name:") return words[i + 1].substr(1, words[i + 1].size() - 2);
  }
  return std::string(text);
}

std::vector<std::string> ListPieces(const AttrDef& attr, const core::AttrList& list) {
  std::vector<std::string> pieces;
  for (const auto& value : list.s) pieces.push_back(SummarizeString(value));
  for (const int64_t value : list.i) pieces.push_back(std::to_string(value));
  for (const float value : list.f) pieces.push_back(SummarizeFloat(value));
  for (const bool value : list.b) pieces.emplace_back(value ? "true" : "false");
  for (const TF_DataType value : list.type) pieces.push_back(EnumName(value));
  if (pieces.empty() && attr.default_text) {
    for (const auto& group : BraceGroups(*attr.default_text))
      pieces.push_back(ProtoText(attr.element_type(), group));
  }
  return pieces;
}

std::string SummarizeDefault(const AttrDef& attr) {
  const core::AttrValue& value = attr.default_value;
  if (const auto* list = std::get_if<core::AttrList>(&value)) {
    return "[" + Join(ListPieces(attr, *list), ", ") + "]";
  }
  if (const auto* text = std::get_if<std::string>(&value)) return SummarizeString(*text);
  if (const auto* number = std::get_if<int64_t>(&value)) return std::to_string(*number);
  if (const auto* real = std::get_if<float>(&value)) return SummarizeFloat(*real);
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const auto* dtype = std::get_if<TF_DataType>(&value)) return EnumName(*dtype);
  // Shape, tensor and func defaults are kept as text only.
  if (attr.is_list()) {
    std::vector<std::string> pieces;
    for (const auto& group : BraceGroups(*attr.default_text))
      pieces.push_back(ProtoText(attr.element_type(), group));
    return "[" + Join(pieces, ", ") + "]";
  }
  return ProtoText(attr.element_type(), *attr.default_text);
}

std::string SummarizeAllowed(const AttrDef& attr) {
  std::vector<std::string> pieces;
  for (const TF_DataType dtype : attr.allowed_types) pieces.push_back(EnumName(dtype));
  for (const auto& text : attr.allowed_strings) pieces.push_back(SummarizeString(text));
  return "[" + Join(pieces, ", ") + "]";
}

// "x:T", "values:N*T", "ref:Ref(T)", "y:float"; an argument typed by a list(type) attr shows
// no type at all, as in TensorFlow.
std::string SummarizeArg(const ArgDef& arg) {
  std::string text = arg.name + ":";
  if (arg.is_ref) text += "Ref(";
  if (!arg.number_attr.empty()) text += arg.number_attr + "*";
  text += arg.type ? core::DataTypeName(*arg.type) : arg.type_attr;
  if (arg.is_ref) text += ")";
  return text;
}

std::string SummarizeArgs(const std::vector<ArgDef>& args) {
  std::vector<std::string> pieces;
  pieces.reserve(args.size());
  for (const auto& arg : args) pieces.push_back(SummarizeArg(arg));
  return Join(pieces, ", ");
}

}  // namespace

std::string SummarizeOpDef(const OpDef& op) {
  std::string text = "Op<name=" + op.name + "; signature=" + SummarizeArgs(op.inputs) + " -> " +
                     SummarizeArgs(op.outputs);
  for (const auto& attr : op.attrs) {
    text += "; attr=" + attr.name + ":" + attr.type;
    if (attr.default_text) text += ",default=" + SummarizeDefault(attr);
    if (attr.minimum) text += ",min=" + std::to_string(*attr.minimum);
    if (!attr.allowed_types.empty() || !attr.allowed_strings.empty()) {
      text += ",allowed=" + SummarizeAllowed(attr);
    }
  }
  const std::pair<bool, const char*> flags[] = {
      {op.is_commutative, "is_commutative"},
      {op.is_aggregate, "is_aggregate"},
      {op.is_stateful, "is_stateful"},
      {op.allows_uninitialized_input, "allows_uninitialized_input"},
      {op.is_distributed_communication, "is_distributed_communication"}};
  for (const auto& [set, flag] : flags) {
    if (set) text += std::string("; ") + flag + "=true";
  }
  return text + ">";
}

}  // namespace conformance::ops
