#pragma once
// --profile NAME|RELEASE: a profile's name ("tf2.16"), or a TensorFlow release ("2.17",
// "2.17.1") that picks the profile whose `releases` range holds it (specs/profiles/*.yaml).
#include <ostream>
#include <string>
#include <vector>

#include "run/compatibility_matrix.h"

namespace conformance {

// `value` when it is not a release number (CheckProfile judges the name); otherwise the profile
// of `generations` (name, releases) that stands for that release, said on `err`. Throws a
// UsageError naming every profile's releases when no profile stands for it (2.4, 2.22).
std::string ResolveProfileOption(const std::string& value,
                                 const std::vector<MatrixGeneration>& generations,
                                 std::ostream& err);

}  // namespace conformance
