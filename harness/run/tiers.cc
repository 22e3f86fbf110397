#include "run/tiers.h"

#include <algorithm>
#include <set>

#include "run/did_you_mean.h"
#include "run/usage_error.h"

namespace conformance {
namespace {

constexpr std::string_view kStress = "stress";
constexpr std::string_view kAll = "all";

std::string_view Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> InCanonicalOrder(const std::set<std::string, std::less<>>& wanted) {
  std::vector<std::string> ordered;
  for (const std::string& tier : KnownTiers()) {
    if (wanted.contains(tier)) ordered.push_back(tier);
  }
  return ordered;
}

}  // namespace

const std::vector<std::string>& KnownTiers() {
  static const std::vector<std::string> tiers = {"load",  "runtime",  "kernels",
                                                 "graph", "profiler", std::string(kStress)};
  return tiers;
}

std::vector<std::string> DefaultTiers(const std::vector<TestUnit>& suite) {
  std::set<std::string, std::less<>> present;
  for (const TestUnit& unit : suite) {
    if (unit.tier != kStress) present.insert(unit.tier);
  }
  return InCanonicalOrder(present);
}

std::vector<std::string> ResolveTiers(const std::vector<std::string>& requested,
                                      const std::vector<TestUnit>& suite) {
  std::set<std::string, std::less<>> wanted;
  for (const std::string& value : requested) {
    std::string_view rest = value;
    while (true) {
      const std::size_t comma = rest.find(',');
      const std::string_view name = Trim(rest.substr(0, comma));
      if (name == kAll) {
        wanted.insert(KnownTiers().begin(), KnownTiers().end());
      } else if (std::find(KnownTiers().begin(), KnownTiers().end(), name) !=
                 KnownTiers().end()) {
        wanted.emplace(name);
      } else {
        std::string message = "unknown tier '" + std::string(name) + "'";
        std::vector<std::string> candidates = KnownTiers();
        candidates.emplace_back(kAll);
        if (auto suggestion = ClosestMatch(name, candidates)) {
          message += " (did you mean '" + *suggestion + "'?)";
        }
        message += "; known tiers: load, runtime, kernels, graph, profiler, stress, all";
        throw UsageError(message);
      }
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  if (wanted.empty()) return DefaultTiers(suite);
  return InCanonicalOrder(wanted);
}

}  // namespace conformance
