#include "validate/header_generation.h"

#include <algorithm>

namespace conformance::validate {
namespace {

std::string JoinHeaders(const std::vector<const HeaderGeneration*>& generations) {
  std::string text;
  for (const HeaderGeneration* generation : generations) {
    if (text.find(generation->headers) != std::string::npos)
      continue;  // newest, tf2.15 and tf2.10 share one
    text += (text.empty() ? "" : " or ") + generation->headers;
  }
  return text;
}

}  // namespace

std::vector<const HeaderGeneration*> GenerationsHaving(const std::string& struct_name,
                                                       std::uint64_t value) {
  std::vector<const HeaderGeneration*> found;
  for (const HeaderGeneration& generation : HeaderGenerations()) {
    const auto& structs = generation.layout->structs;
    auto it = structs.find(struct_name);
    if (it != structs.end() && it->second.struct_size_value == value) found.push_back(&generation);
  }
  return found;
}

std::string GenerationInference::Headers() const {
  return candidates.empty() ? "an unknown TensorFlow version" : JoinHeaders(candidates);
}

GenerationInference InferGeneration(const std::vector<WrittenSize>& written) {
  GenerationInference inference;
  bool any = false;
  std::vector<const HeaderGeneration*> common;
  for (const WrittenSize& size : written) {
    const auto matching = GenerationsHaving(size.struct_name, size.value);
    if (matching.empty()) continue;
    inference.evidence += (inference.evidence.empty() ? "" : ", ") + size.struct_name + " " +
                          std::to_string(size.value) + " (" + JoinHeaders(matching) + ")";
    if (!any) {
      common = matching;
      any = true;
      continue;
    }
    std::erase_if(common, [&](const HeaderGeneration* g) {
      return std::find(matching.begin(), matching.end(), g) == matching.end();
    });
  }
  inference.mixture = any && common.empty();
  inference.candidates = std::move(common);
  return inference;
}

}  // namespace conformance::validate
