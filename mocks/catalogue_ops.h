#pragma once
// The signatures and attr defaults of the op catalogue's ops (specs/ops/*.yaml), compiled into
// the mocks library at build time (generate_catalogue_ops.cc), so the fake kernel context knows
// every catalogue op without the catalogue's YAML parser.
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes.h"

namespace conformance::mocks {

// One input or output: its name and its type, an attr name ("T") or a dtype name ("float").
struct CatalogueArg {
  std::string name;
  std::string type;
};
struct CatalogueOp {
  std::string name;
  std::vector<CatalogueArg> inputs, outputs;
  core::AttrMap defaults;  // the attrs with a default, as TensorFlow adds them to a NodeDef
};

// Every catalogue op, sorted by name.
const std::vector<CatalogueOp>& CatalogueOps();
// nullptr when `name` is no catalogue op.
const CatalogueOp* FindCatalogueOp(std::string_view name);

}  // namespace conformance::mocks
