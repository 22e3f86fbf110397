#pragma once
// Node attributes as typed C++ values, mirroring the AttrValue proto (a scalar of one of
// eight kinds, a placeholder, or a list that may hold several kinds at once), and the
// lookups the kernel C API performs on them with TensorFlow's exact error texts.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/export.h"
#include "core/status.h"
#include "core/tensor.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::core {

// A shape attribute (TensorShapeProto): unknown rank, or dims where -1 is unknown.
struct PartialShape {
  bool unknown_rank = false;
  std::vector<int64_t> dims = {};

  static PartialShape Unknown() { return PartialShape{true, {}}; }
  static PartialShape Of(std::vector<int64_t> dims) { return PartialShape{false, std::move(dims)}; }
  int64_t rank() const { return unknown_rank ? -1 : static_cast<int64_t>(dims.size()); }
  // Spelled out (not "= default"): plugin unit tests include this header as C++17.
  friend bool operator==(const PartialShape& a, const PartialShape& b) {
    return a.unknown_rank == b.unknown_rank && a.dims == b.dims;
  }
  friend bool operator!=(const PartialShape& a, const PartialShape& b) { return !(a == b); }
};
// "[2,?]" / "<unknown>", TensorFlow's DebugString of a TensorShapeProto.
CONFORMANCE_CORE_API std::string PartialShapeString(const PartialShape& shape);

struct NamedAttr;
// A function attribute (NameAttrList): function name plus its own attributes.
struct NameAttrList {
  std::string name = {};
  // No "= {}": clang would instantiate the vector's destructor while NamedAttr is incomplete.
  std::vector<NamedAttr> attrs;
};

struct AttrPlaceholder {
  std::string name = {};
};

// ListValue: every field may be filled; the non-empty one decides the list's type.
struct AttrList {
  std::vector<std::string> s = {};
  std::vector<int64_t> i = {};
  std::vector<float> f = {};
  std::vector<bool> b = {};
  std::vector<TF_DataType> type = {};
  std::vector<PartialShape> shape = {};
  std::vector<Tensor> tensor = {};
  std::vector<NameAttrList> func = {};
};

// An AttrValue with no value set (VALUE_NOT_SET).
struct AttrNotSet {};

using AttrValue = std::variant<AttrNotSet, std::string, int64_t, float, bool, TF_DataType,
                               PartialShape, Tensor, NameAttrList, AttrPlaceholder, AttrList>;

struct NamedAttr {
  std::string name;
  AttrValue value;
};

// Attributes of a node, ordered by name (NodeDef serialization is deterministic).
using AttrMap = std::map<std::string, AttrValue, std::less<>>;

// --- Typed lookups with TensorFlow's semantics and messages -----------------------------
// `node` is the node name used in messages.

// GetNodeAttr's lookup: NOT_FOUND "No attr named '<attr>' in NodeDef:" followed by
// "\n\t [[{{node <node>}}]]" (not for names starting with '_').
CONFORMANCE_CORE_API Status FindAttr(const AttrMap& attrs, std::string_view node,
                                     std::string_view attr, const AttrValue** value);

// TensorFlow's AttrValueHasType(value, "int" / "list(int)" / ...): INVALID_ARGUMENT
// "AttrValue had value with type 'float' when 'int' expected" and friends.
CONFORMANCE_CORE_API Status AttrValueHasType(const AttrValue& value, std::string_view type);

// GetNodeAttr for the types the C API reads. int32 adds the range check ("Attr <attr>
// has value <v> out of range for an int32"); TensorShape rejects unknown dims.
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    std::string* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    int64_t* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    int32_t* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    float* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    bool* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    TF_DataType* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    Tensor* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    NameAttrList* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    std::vector<std::string>* out);
CONFORMANCE_CORE_API Status GetAttr(const AttrMap&, std::string_view node, std::string_view attr,
                                    std::vector<Tensor>* out);
// A fully defined shape (TensorShape): unknown rank or a -1 dim is INVALID_ARGUMENT
// "Shape <shape> is not fully defined".
CONFORMANCE_CORE_API Status GetAttrTensorShape(const AttrMap&, std::string_view node,
                                               std::string_view attr, std::vector<int64_t>* out);

}  // namespace conformance::core
