#pragma once
// The attrs a scenario gives one op (a kernel scenario, or a node of a model) checked against
// the op's definition: every attr is one of the op's, its value has the attr's type (and is one
// of its allowed strings or types), and every attr without a default is given. Shared by the
// kernel and model scenario languages, so a mistake is reported the same way in both, at
// file:line:col with the key and a did-you-mean, instead of reaching the kernel, which rejects
// it and is then blamed for the scenario's mistake.
#include <map>
#include <string>

#include "core/attributes.h"
#include "ops/op_def.h"
#include "scenario/scenario_error.h"

namespace conformance::kernels {

// Adds one error per problem and returns false when there was any. `attr_at` holds where each
// attr was written (`at` for those not there, and for a missing attr). Integer values of float
// attrs become floats (`alpha: 1`). Type attrs are never required: TensorFlow infers them from
// the inputs' dtypes.
bool ConformAttrs(const ops::OpDef& op, core::AttrMap& attrs,
                  const std::map<std::string, scenario::Location>& attr_at, scenario::Location at,
                  scenario::ErrorList& errors);

}  // namespace conformance::kernels
