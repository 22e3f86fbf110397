#pragma once
// The check catalogue (specs/checks/*.yaml, compiled into the binary): for each stable check
// id, the rule, what TensorFlow does, and how to fix a failure.
#include <string>
#include <string_view>
#include <vector>

#include "model/outcome.h"

namespace conformance {

struct CheckEntry {
  std::string id;          // e.g. load.se.platform.name_regex
  std::string tier;        // first id component: load, runtime, ...
  Origin origin = Origin::kTensorFlow;
  std::string rule;        // what must hold
  std::string tensorflow;  // what TensorFlow does when it does not
  std::string fix;         // how a vendor fixes a failure
};

// All entries, sorted by id. Parsed once; aborts with a clear message if the embedded
// catalogue is malformed (a build defect, caught by the catalogue test).
const std::vector<CheckEntry>& Catalogue();
// The built-in entry for `id`, else one added by AddRunTimeChecks, else nullptr.
const CheckEntry* FindCheck(std::string_view id);

// Entries of checks defined when the suite is built (vendor scenarios from --scenarios), so
// --list -v and the reports show their rule like the built-ins'. Built-in ids win.
void AddRunTimeChecks(std::vector<CheckEntry> entries);

}  // namespace conformance
