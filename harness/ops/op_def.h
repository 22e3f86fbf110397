#pragma once
// An op definition as TensorFlow's op registry holds it (OpDef), built from the spec strings of
// its op-definition grammar: the catalogue's YAML files and a plugin's ops.h registrations both
// give exactly those strings.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/attributes.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::ops {

// Why a spec string does not parse: the string, the 1-based column where parsing stopped and
// TensorFlow's message for it (or ours, for checks TensorFlow makes later in ValidateOpDef).
struct SpecError {
  std::string spec;
  int column = 1;
  std::string message;
  std::string hint;  // ours, e.g. "did you mean 'float'?"; empty when there is none
};
// "'T: {flaot}' column 5: Unrecognized type string 'flaot' (did you mean 'float'?)".
std::string ToString(const SpecError& error);
// A name or value as TensorFlow's op-definition messages quote it: 'T'.
inline std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// One input or output: "name: T", "name: float", "name: N * T", "name: Tlist", "name: Ref(T)".
struct ArgDef {
  std::string name;
  std::optional<TF_DataType> type;  // a fixed dtype ("x: float")
  std::string type_attr;            // a "type" attr ("x: T")
  std::string type_list_attr;       // a "list(type)" attr ("x: Tlist"); set when the op is built
  std::string number_attr;          // "x: N * T": N tensors
  bool is_ref = false;
  int type_column = 0;  // where the type or attr name starts in the spec (1-based), for errors
};

// One attribute: "name: <type> [>= min] [= default]".
struct AttrDef {
  std::string name;
  std::string type;  // "int", "float", "bool", "string", "type", "shape", "tensor", "func",
                     // or "list(<one of those>)"
  // For "type"/"list(type)": the allowed dtypes in spec order (type classes expanded);
  // empty when any dtype is allowed.
  std::vector<TF_DataType> allowed_types;
  std::vector<std::string> allowed_strings;  // "{'SAME', 'VALID'}"; empty: any string
  std::optional<int64_t> minimum;            // ">= N": minimum value (int) or length (list)
  std::optional<std::string> default_text;   // the text after "=", as written
  // The parsed default; AttrNotSet when there is none or for shape/tensor/func defaults,
  // which are kept as text only.
  core::AttrValue default_value = core::AttrNotSet{};

  bool is_list() const { return type.starts_with("list("); }
  // "int" for "list(int)"; the type itself otherwise.
  std::string element_type() const { return is_list() ? type.substr(5, type.size() - 6) : type; }
};

struct OpDef {
  std::string name;
  std::string summary;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<AttrDef> attrs;
  bool broadcasting = false;  // element-wise binary op with NumPy-style broadcasting
  // OpDef's flags, as TensorFlow's registry holds them (its summary of the op names each set one).
  bool is_commutative = false;
  bool is_aggregate = false;
  bool is_stateful = false;
  bool allows_uninitialized_input = false;
  bool is_distributed_communication = false;

  const AttrDef* FindAttr(std::string_view attr) const;
  const ArgDef* FindInput(std::string_view arg) const;
  const ArgDef* FindOutput(std::string_view arg) const;
};

}  // namespace conformance::ops
