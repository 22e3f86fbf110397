#include "core/attributes.h"

#include <limits>

#include "core/datatype.h"

namespace conformance::core {
namespace {

Status InvalidArgument(std::string message) {
  return Status::Error(TF_INVALID_ARGUMENT, std::move(message));
}

// One scalar kind of AttrValue: its type string and how to find it in a value or list.
struct Kind {
  const char* name;
  bool (*holds)(const AttrValue&);
  bool (*list_non_empty)(const AttrList&);
};

template <typename T>
bool Holds(const AttrValue& v) {
  return std::holds_alternative<T>(v);
}

// Same order as TensorFlow checks the fields (s, i, f, b, type, shape, tensor, func).
const Kind kKinds[] = {
    {"string", Holds<std::string>, [](const AttrList& l) { return !l.s.empty(); }},
    {"int", Holds<int64_t>, [](const AttrList& l) { return !l.i.empty(); }},
    {"float", Holds<float>, [](const AttrList& l) { return !l.f.empty(); }},
    {"bool", Holds<bool>, [](const AttrList& l) { return !l.b.empty(); }},
    {"type", Holds<TF_DataType>, [](const AttrList& l) { return !l.type.empty(); }},
    {"shape", Holds<PartialShape>, [](const AttrList& l) { return !l.shape.empty(); }},
    {"tensor", Holds<Tensor>, [](const AttrList& l) { return !l.tensor.empty(); }},
    {"func", Holds<NameAttrList>, [](const AttrList& l) { return !l.func.empty(); }},
};

Status CheckDataType(int value, bool in_list) {
  if (!IsDeclaredDataType(value)) {
    return InvalidArgument("AttrValue has invalid DataType enum: " + std::to_string(value));
  }
  if (value > 100) {
    return InvalidArgument("AttrValue must not have reference type value of " +
                           DataTypeName(static_cast<TF_DataType>(value - 100)) + "_ref");
  }
  if (value == 0) {
    return InvalidArgument(in_list ? "AttrValue contains invalid DataType"
                                   : "AttrValue has invalid DataType");
  }
  return Status::Ok();
}

// Lookup + type check shared by every typed getter.
Status Lookup(const AttrMap& attrs, std::string_view node, std::string_view attr,
              std::string_view type, const AttrValue** value) {
  Status s = FindAttr(attrs, node, attr, value);
  if (!s.ok()) return s;
  return AttrValueHasType(**value, type);
}

}  // namespace

std::string PartialShapeString(const PartialShape& shape) {
  if (shape.unknown_rank) return "<unknown>";
  std::string out = "[";
  for (std::size_t i = 0; i < shape.dims.size(); ++i) {
    if (i > 0) out += ",";
    out += shape.dims[i] < 0 ? "?" : std::to_string(shape.dims[i]);
  }
  return out + "]";
}

Status FindAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
                const AttrValue** value) {
  auto it = attrs.find(attr);
  if (it != attrs.end()) {
    *value = &it->second;
    return Status::Ok();
  }
  *value = nullptr;
  std::string message = "No attr named '" + std::string(attr) + "' in NodeDef:";
  // TensorFlow skips attaching the node for internal ("_") attributes.
  if (!attr.starts_with("_")) message += "\n\t [[{{node " + std::string(node) + "}}]]";
  return Status::Error(TF_NOT_FOUND, std::move(message));
}

Status AttrValueHasType(const AttrValue& value, std::string_view type) {
  const AttrList* list = std::get_if<AttrList>(&value);
  int num_set = 0;
  for (const Kind& kind : kKinds) {
    const std::string name = kind.name;
    const std::string list_name = "list(" + name + ")";
    if (list != nullptr) {
      if (kind.list_non_empty(*list)) {
        if (type != list_name) {
          return InvalidArgument("AttrValue had value with type '" + list_name + "' when '" +
                                 std::string(type) + "' expected");
        }
        ++num_set;
      }
    } else if (kind.holds(value)) {
      if (type != name) {
        return InvalidArgument("AttrValue had value with type '" + name + "' when '" +
                               std::string(type) + "' expected");
      }
      ++num_set;
    }
  }
  if (std::holds_alternative<AttrPlaceholder>(value)) {
    return InvalidArgument("AttrValue had value with unexpected type 'placeholder'");
  }
  const bool wants_list = type.starts_with("list(");
  if (wants_list && list == nullptr) {
    // An unset value reads as an empty list (old GraphDefs); a scalar does not.
    if (num_set > 0) {
      return InvalidArgument("AttrValue missing value with expected type '" + std::string(type) +
                             "'");
    }
    ++num_set;
  }
  if (num_set == 0 && !wants_list) {
    return InvalidArgument("AttrValue missing value with expected type '" + std::string(type) +
                           "'");
  }
  if (type == "type") {
    return CheckDataType(static_cast<int>(std::get<TF_DataType>(value)), /*in_list=*/false);
  }
  if (type == "list(type)" && list != nullptr) {
    for (TF_DataType t : list->type) {
      Status s = CheckDataType(static_cast<int>(t), /*in_list=*/true);
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
               std::string* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, "string", &v);
  if (s.ok()) *out = std::get<std::string>(*v);
  return s;
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr, int64_t* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, "int", &v);
  if (s.ok()) *out = std::get<int64_t>(*v);
  return s;
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr, int32_t* out) {
  int64_t wide = 0;
  Status s = GetAttr(attrs, node, attr, &wide);
  if (!s.ok()) return s;
  if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
    return InvalidArgument("Attr " + std::string(attr) + " has value " + std::to_string(wide) +
                           " out of range for an int32");
  }
  *out = static_cast<int32_t>(wide);
  return s;
}

namespace {

// Scalar attributes whose stored alternative is exactly the requested C++ type.
template <typename T>
Status GetAlternative(const AttrMap& attrs, std::string_view node, std::string_view attr,
                      const char* type_name, T* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, type_name, &v);
  if (s.ok()) *out = std::get<T>(*v);
  return s;
}

}  // namespace

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr, float* out) {
  return GetAlternative(attrs, node, attr, "float", out);
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr, bool* out) {
  return GetAlternative(attrs, node, attr, "bool", out);
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
               TF_DataType* out) {
  return GetAlternative(attrs, node, attr, "type", out);
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr, Tensor* out) {
  return GetAlternative(attrs, node, attr, "tensor", out);
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
               NameAttrList* out) {
  return GetAlternative(attrs, node, attr, "func", out);
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
               std::vector<std::string>* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, "list(string)", &v);
  if (!s.ok()) return s;
  const AttrList* list = std::get_if<AttrList>(v);
  *out = list == nullptr ? std::vector<std::string>{} : list->s;
  return s;
}

Status GetAttr(const AttrMap& attrs, std::string_view node, std::string_view attr,
               std::vector<Tensor>* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, "list(tensor)", &v);
  if (!s.ok()) return s;
  const AttrList* list = std::get_if<AttrList>(v);
  *out = list == nullptr ? std::vector<Tensor>{} : list->tensor;
  return s;
}

Status GetAttrTensorShape(const AttrMap& attrs, std::string_view node, std::string_view attr,
                          std::vector<int64_t>* out) {
  const AttrValue* v;
  Status s = Lookup(attrs, node, attr, "shape", &v);
  if (!s.ok()) return s;
  const PartialShape& shape = std::get<PartialShape>(*v);
  bool defined = !shape.unknown_rank;
  for (int64_t d : shape.dims) defined = defined && d >= 0;
  if (!defined) {
    return InvalidArgument("Shape " + PartialShapeString(shape) + " is not fully defined");
  }
  *out = shape.dims;
  return s;
}

}  // namespace conformance::core
