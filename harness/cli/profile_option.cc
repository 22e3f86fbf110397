#include "cli/profile_option.h"

#include <utility>

#include "installed_tensorflow/installed_release.h"
#include "model/name_syntax.h"
#include "run/usage_error.h"

namespace conformance {

std::string ResolveProfileOption(const std::string& value,
                                 const std::vector<MatrixGeneration>& generations,
                                 std::ostream& err) {
  // MAJOR.MINOR or MAJOR.MINOR.PATCH; a profile's own name never looks like one.
  if (!IsReleaseNumber(value) || generations.empty()) return value;
  std::vector<std::pair<std::string, std::string>> ranges;
  ranges.reserve(generations.size());
  for (const MatrixGeneration& generation : generations)
    ranges.emplace_back(generation.profile, generation.releases);
  if (auto profile = tensorflow_driver::ProfileForRelease(value, ranges)) {
    for (const auto& [name, releases] : ranges) {
      if (name == *profile) {
        err << "plugin_conformance: TensorFlow " << value << " is emulated by profile " << name
            << " (TensorFlow " << releases << ")\n";
      }
    }
    return *profile;
  }
  // Newest first, as the profiles are listed; each range was measured on its wheels.
  std::string known;
  for (const auto& [name, releases] : ranges)
    known += (known.empty() ? "" : ", ") + releases + " (" + name + ")";
  throw UsageError("--profile " + value + ": no profile stands for TensorFlow " + value +
                   "; known releases: " + known);
}

}  // namespace conformance
