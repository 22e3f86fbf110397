#pragma once
// Work done in a sibling process, forked before the candidate plugin is loaded into this one:
// the reference plugin's results for the kernel and model tiers. The sibling's crash handlers
// are the default ones (its crash is not the unit's) and it dies with its parent.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conformance::kernels {

struct SiblingResult {
  std::string failure;  // empty when the sibling sent its bytes and exited normally
  std::vector<std::uint8_t> bytes;
};

// Runs `compute` in a forked child and returns what it produced. `plugin_path` and `waiting_for`
// appear in messages (and in a timeout's "waiting for" line).
SiblingResult RunInSibling(const std::function<std::vector<std::uint8_t>()>& compute,
                           const std::string& plugin_path, const std::string& waiting_for);

}  // namespace conformance::kernels
