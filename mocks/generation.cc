#include "mocks/generation.h"

namespace conformance::mocks {

const GenerationFacts& Facts(Generation generation) {
  static constexpr GenerationFacts kNewest{"newest", 288, 280, true, 35};
  static constexpr GenerationFacts kTf27{"tf2.7", 288, 280, true, 34};
  static constexpr GenerationFacts kTf25{"tf2.5", 264, 256, false, 34};
  switch (generation) {
    case Generation::kTf2_7: return kTf27;
    case Generation::kTf2_5: return kTf25;
    case Generation::kNewest: break;
  }
  return kNewest;
}

std::optional<Generation> ParseGeneration(std::string_view name) {
  if (name == "newest" || name == "tf2.10") return Generation::kNewest;
  if (name == "tf2.7") return Generation::kTf2_7;
  if (name == "tf2.5") return Generation::kTf2_5;
  return std::nullopt;
}

}  // namespace conformance::mocks
