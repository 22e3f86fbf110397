#pragma once
// The op catalogue: the ops of specs/ops/*.yaml, compiled in at build time, and the lookups the
// load and kernel tiers make on it.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_builder.h"
#include "ops/op_def.h"
#include "tensorflow/c/tf_datatype.h"

namespace conformance::ops {

// A catalogue file that does not load: "file:line:col: message".
class OpCatalogueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One catalogue file (a YAML list of ops); throws OpCatalogueError on the first problem,
// pointing at the exact column of a spec string's error.
std::vector<OpDef> ParseOpCatalogue(std::string_view file, std::string_view yaml_text);

// Every op of specs/ops/*.yaml, sorted by name. The files are checked by the tests, so a
// problem here is a build defect: it aborts with the error.
const std::vector<OpDef>& BuiltInOps();
const OpDef* FindOp(std::string_view name);
// Their names, in the same order: the candidates of a did-you-mean.
std::vector<std::string> BuiltInOpNames();

// The dtypes a "type" or "list(type)" attr allows: its set, or every dtype a kernel can be
// constrained to when the attr is unrestricted. Empty when `attr` is no such attr of `op`.
std::vector<TF_DataType> AllowedTypes(const OpDef& op, std::string_view attr);

// The type attr of the op's first output when it names the op's (op, dtype) cells although it
// types no input: every attr typing an input is an index dtype with a default (integers only:
// StatelessRandomUniform's dtype, its shape's T and its seed's Tseed being index dtypes; not
// Complex, whose float T names its cells) or the inputs have fixed dtypes (Empty's dtype,
// CropAndResizeGradImage's T). A plugin constrains that attr, not the index dtypes, so
// the generator and the record name the cells by it. Empty otherwise.
std::string OutputOnlyCellAttr(const OpDef& op);

}  // namespace conformance::ops
