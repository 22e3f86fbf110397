#pragma once
// The variants a family's parameterized test runs in this build. Every variant of a defect
// family runs plugin_conformance on its own plugin: under the sanitizers the code under test is
// the same harness on every variant (the plugins themselves are never sanitized), so the
// sanitized suite runs a fixed quarter of each family (every fourth variant, in the table's
// order, the first included) and the default suite runs them all. This took the asan suite's
// family runs from about a thousand CPU-seconds to a quarter of that (BENCHMARKS.md, "CI time");
// the tables' own coverage tests still read every variant.
#include <cstddef>
#include <utility>
#include <vector>

namespace conformance::test_support {

inline constexpr std::size_t kSanitizedSampleStride = 4;

template <typename Variant>
std::vector<Variant> SanitizerSample(std::vector<Variant> variants) {
#if defined(CONFORMANCE_SANITIZED_BUILD)
  std::vector<Variant> sample;
  for (std::size_t i = 0; i < variants.size(); i += kSanitizedSampleStride) {
    sample.push_back(std::move(variants[i]));
  }
  return sample;
#else
  return variants;
#endif
}

}  // namespace conformance::test_support
