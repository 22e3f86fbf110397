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

bool IsKnown(std::string_view name) {
  return std::find(KnownTiers().begin(), KnownTiers().end(), name) != KnownTiers().end();
}

[[noreturn]] void ThrowUnknownTier(std::string_view name) {
  std::string message = "unknown tier '" + std::string(name) + "'";
  std::vector<std::string> candidates = KnownTiers();
  candidates.emplace_back(kAll);
  if (auto suggestion = ClosestMatch(name, candidates)) {
    message += " (did you mean '" + *suggestion + "'?)";
  }
  message += "; known tiers: ";
  for (const std::string& tier : KnownTiers()) message += tier + ", ";
  message += std::string(kAll);
  throw UsageError(message);
}

// Every name in the --tier values (each may be a comma-separated list), in the order given.
std::vector<std::string> SplitTierNames(const std::vector<std::string>& requested) {
  std::vector<std::string> names;
  for (const std::string& value : requested) {
    std::string_view rest = value;
    while (true) {
      const std::size_t comma = rest.find(',');
      names.emplace_back(Trim(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  return names;
}

}  // namespace

const std::vector<std::string>& KnownTiers() {
  static const std::vector<std::string> tiers = {"load",  "runtime",  "kernels",           "models",
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

bool NeedsALoadablePlugin(const TestUnit& unit) {
  // The installed TensorFlow is its own judge of whether it loads the plugin.
  if (unit.in_installed_tensorflow) return false;
  return unit.tier == "runtime" || unit.tier == "stress" || unit.tier == "kernels" ||
         unit.tier == "models";
}

std::vector<std::string> TiersInSuite(const std::vector<TestUnit>& suite) {
  std::set<std::string, std::less<>> present;
  for (const TestUnit& unit : suite) present.insert(unit.tier);
  return InCanonicalOrder(present);
}

std::vector<std::string> TiersToBuild(const std::vector<std::string>& requested) {
  std::set<std::string, std::less<>> named;
  for (const std::string& name : SplitTierNames(requested)) {
    if (name == kAll) return {};
    if (IsKnown(name)) named.insert(name);
  }
  return InCanonicalOrder(named);
}

TierRequest ResolveTiers(const std::vector<std::string>& requested,
                         const std::vector<TestUnit>& suite) {
  std::set<std::string, std::less<>> named;
  bool all = false;
  for (const std::string& name : SplitTierNames(requested)) {
    if (name == kAll) {
      all = true;
    } else if (IsKnown(name)) {
      named.insert(name);
    } else {
      ThrowUnknownTier(name);
    }
  }
  TierRequest request;
  request.named = InCanonicalOrder(named);
  std::set<std::string, std::less<>> wanted = named;
  if (all) {
    for (const std::string& tier : TiersInSuite(suite)) wanted.insert(tier);
  }
  request.tiers = wanted.empty() && !all ? DefaultTiers(suite) : InCanonicalOrder(wanted);
  return request;
}

}  // namespace conformance
