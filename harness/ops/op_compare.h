#pragma once
// Whether two definitions of one op say the same: the hand-written catalogue entries
// (specs/ops/*.yaml) against TensorFlow's registry. Allowed dtypes and strings compare as sets
// (a type class and its expansion are the same constraint); everything else exactly.
#include <string>
#include <vector>

#include "ops/op_def.h"

namespace conformance::ops {

// One sentence per difference, e.g. "attr T: allows int16 only in TensorFlow's"; empty when the
// two are equal. Summaries and the broadcasting flag are ours and not compared.
std::vector<std::string> DefinitionDifferences(const OpDef& ours, const OpDef& tensorflow);

}  // namespace conformance::ops
