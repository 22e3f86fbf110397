#include "run/precision_warnings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace conformance {
namespace {

// Mantissa bits of the floating dtypes a declaration may name: an ulp bound of 2^bits is a
// relative error of 1 or more.
int MantissaBits(const std::string& dtype) {
  static const std::map<std::string, int> bits = {
      {"half", 10}, {"bfloat16", 7}, {"float", 23}, {"double", 52}};
  const auto found = bits.find(dtype);
  return found == bits.end() ? 23 : found->second;
}

std::string Number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::string Target(const DeclaredPrecision& declaration) {
  return declaration.op + " (" + declaration.dtype +
         (declaration.scenario.empty() ? "" : ", scenario " + declaration.scenario) + ")";
}

bool Registers(const std::vector<RegisteredCell>& cells, const DeclaredPrecision& declaration) {
  return std::any_of(cells.begin(), cells.end(), [&](const RegisteredCell& cell) {
    return cell.op == declaration.op &&
           (cell.dtype == declaration.dtype || cell.dtype == kEveryDtype);
  });
}

}  // namespace

std::vector<std::string> PrecisionWarnings(
    const std::vector<DeclaredPrecision>& declarations,
    const std::optional<std::vector<RegisteredCell>>& registered) {
  std::vector<std::string> warnings;
  const std::string consequence =
      ": the checks it widens can no longer catch a wrong kernel; declare the error the kernel "
      "has (TF32 MatMul: rtol 1e-3)";
  for (const DeclaredPrecision& d : declarations) {
    const std::string where = d.source + ": precision declaration for " + Target(d);
    if (d.rtol >= 1) {
      warnings.push_back(where + ": rtol " + Number(d.rtol) +
                         " accepts zeros for every expected value (a relative bound of 1 or more "
                         "accepts anything between 0 and twice the expected value)" +
                         consequence);
    }
    if (d.atol >= 1) {
      warnings.push_back(where + ": atol " + Number(d.atol) + " accepts any result within " +
                         Number(d.atol) +
                         " of the expected one, the size of the values the cases hold (random "
                         "inputs lie in [-10, 10] unless a scenario says otherwise)" +
                         consequence);
    }
    if (d.ulp > 0 && std::log2(static_cast<double>(d.ulp)) >= MantissaBits(d.dtype)) {
      warnings.push_back(where + ": ulp " + std::to_string(d.ulp) + " is a relative error of " +
                         "1 or more in " + d.dtype + consequence);
    }
    if (registered && !Registers(*registered, d)) {
      warnings.push_back(where + " is unused: the plugin registers no " + d.op + " kernel for " +
                         d.dtype + ", so it widens nothing; remove it, or correct the op or dtype");
    }
  }
  return warnings;
}

}  // namespace conformance
