#pragma once
// Warnings about a --precision file's declarations, as a waiver file gets about its entries:
// a bound so wide that the checks it widens can no longer catch a wrong kernel (a kernel giving
// zeros passes under rtol >= 1), and a declaration for a kernel the plugin does not register,
// which widens nothing and most likely names the wrong op or dtype.
#include <optional>
#include <string>
#include <vector>

#include "model/declared_precision.h"
#include "run/run_report.h"

namespace conformance {

// One warning per problem, "<file:line>: ...". `registered`: the plugin's registered (op, dtype)
// cells (RunReport::registered_kernels); nullopt when they were not listed, and then nothing is
// said about registration.
std::vector<std::string> PrecisionWarnings(
    const std::vector<DeclaredPrecision>& declarations,
    const std::optional<std::vector<RegisteredCell>>& registered);

}  // namespace conformance
