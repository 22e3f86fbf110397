#pragma once
// One family case (case_families.h) made concrete for one cell: its input tensors in the op's
// order (a list input's copies each) and its attrs typed by the op's definition.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/case_families.h"
#include "kernels/host_tensor.h"
#include "ops/op_def.h"

namespace conformance::kernels {

// The inputs of `family_case` for the op's inputs `inputs` (name, dtype; a list input once per
// copy: a list the case gives tensor by tensor takes its k-th spec for its k-th copy, and must
// have as many), each seeded by `seed_of(input index)`. nullopt when a fill has no values in an
// input's dtype (the case is not for this cell); an error text when the case cannot give an input.
std::variant<std::vector<HostTensor>, std::string, std::nullopt_t> FamilyCaseInputs(
    const FamilyCase& family_case, const std::vector<std::pair<std::string, TF_DataType>>& inputs,
    const std::function<std::uint64_t(std::size_t)>& seed_of);

// The case's attrs as case_json.h writes them ({"i": 3}, {"b": true}, {"list_i": [...]}), typed
// by `def`'s attrs; attrs `def` lacks are left out (a family's ops may differ in them). An error
// text for a value that does not fit its attr. A list(type) attr's elements are dtype names or
// the name of a type attr of the op, which stands for its dtype in the cell (`cell_types`:
// _FusedConv2D's `TArgs: [T]` is a bias of the convolution's dtype); {"list_type": [enums]}.
std::variant<nlohmann::json, std::string> FamilyCaseAttrs(
    const FamilyCase& family_case, const ops::OpDef& def,
    const std::map<std::string, TF_DataType>& cell_types = {});

// The case's tensor attrs that `def` has (Const's value) as {"tensor": case_json.h's tensor},
// each of `dtype` (the cell's) and made as FamilyCaseInputs makes an input, seeded by
// `seed_of(k)` for the k-th; nullopt when a fill has no values in `dtype`, an error text when an
// attr is not a tensor attr of `def`.
std::variant<nlohmann::json, std::string, std::nullopt_t> FamilyTensorAttrs(
    const FamilyCase& family_case, const ops::OpDef& def, TF_DataType dtype,
    const std::function<std::uint64_t(std::size_t)>& seed_of);

}  // namespace conformance::kernels
