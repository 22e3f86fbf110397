#pragma once
// The result taxonomy of DESIGN.md, plus `skipped` for checks that could not run because
// something they depend on did not pass (e.g. every check after a crash in SE_InitPlugin),
// and `flaky` for a check whose outcome varied over the runs of --repeat.
#include <optional>
#include <string_view>

namespace conformance {

enum class Outcome {
  kPass,
  kFail,
  kWarning,
  kNotSupported,  // optional feature absent (e.g. no TF_InitGraph exported)
  kCrash,
  kTimeout,
  kWaived,          // expected failure listed in a waiver file
  kUnexpectedPass,  // waived, but passed: the waiver is stale
  kSkipped,         // not run: a check it depends on did not pass
  kFlaky,           // --repeat saw different outcomes of the same check
};

std::string_view ToString(Outcome outcome);
std::optional<Outcome> OutcomeFromString(std::string_view text);

// The conformance rule: a plugin is conformant when no result has one of these outcomes.
bool BreaksConformance(Outcome outcome);
// What the plugin itself did wrong, as a run observed it: failed, crashed or hung (waivers and
// repeats aside).
bool IsFailure(Outcome outcome);

// Who demands the rule a check enforces.
enum class Origin {
  kTensorFlow,  // TensorFlow's own core enforces it (same code, same message)
  kStricter,    // ours: TensorFlow does not check it (or crashes later instead)
};

std::string_view ToString(Origin origin);
std::optional<Origin> OriginFromString(std::string_view text);

}  // namespace conformance
