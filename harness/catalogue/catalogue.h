#pragma once
// The check catalogue (specs/checks/*.yaml, compiled into the binary): for each stable check
// id, the rule, what TensorFlow does, and how to fix a failure.
#include <string>
#include <string_view>
#include <vector>

#include "model/outcome.h"

namespace conformance {

// What breaking a stricter rule costs a TensorFlow user (DESIGN.md: a stricter check fails only
// where it names one of these; kNone means it can only warn).
enum class ConsequenceKind {
  kNone,               // only a warning: TensorFlow behaves the same either way
  kWrongData,          // tensors or reported numbers come out wrong
  kCrash,              // the process dies (or undefined behaviour that usually kills it)
  kHang,               // a wait never returns
  kLeak,               // memory or objects are never released
  kIndistinctDevices,  // the plugin's own callbacks cannot tell its devices apart
  kUnusable,           // the device, a kernel or a stream fails where TensorFlow uses it
};

// The prefix written in the catalogue ("wrong data", "crash", ..., "none").
std::string_view ToString(ConsequenceKind kind);
// Whether a check with this consequence may fail (anything but kNone).
inline bool MayFail(ConsequenceKind kind) { return kind != ConsequenceKind::kNone; }

struct CheckEntry {
  std::string id;    // e.g. load.se.platform.name_regex
  std::string tier;  // first id component: load, runtime, ...
  Origin origin = Origin::kTensorFlow;
  std::string rule;        // what must hold
  std::string tensorflow;  // what TensorFlow does when it does not
  std::string fix;         // how a vendor fixes a failure
  // Stricter checks only: what a user would hit in TensorFlow when the rule is broken. A check
  // may fail only when this names one (kind other than kNone); otherwise it only warns.
  ConsequenceKind consequence_kind = ConsequenceKind::kNone;
  std::string consequence = {};  // "crash: TensorFlow calls it ..."; empty for tensorflow
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
