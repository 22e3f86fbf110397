#pragma once
// Which TensorFlow header generation a plugin was built against, inferred from the struct_size
// values it wrote (the SE/GO/TP version macros never changed, so sizes are the only evidence).
#include <cstdint>
#include <string>
#include <vector>

#include "validate/profile.h"

namespace conformance::validate {

struct WrittenSize {
  std::string struct_name;  // e.g. "SP_StreamExecutor"
  std::uint64_t value = 0;
};

struct GenerationInference {
  // Generations whose sizes agree with every recognisable value written, newest first.
  std::vector<const HeaderGeneration*> candidates;
  // Every value names some generation, but no single generation has all of them.
  bool mixture = false;
  // "SP_StreamExecutor 264 (TensorFlow 2.5 and 2.6), SP_Platform 35 (...)".
  std::string evidence;

  bool known() const { return !candidates.empty(); }
  // The candidates in plain release numbers: "TensorFlow 2.7 and 2.8" (or several, joined by
  // " or "); "an unknown TensorFlow version" when nothing was recognisable.
  std::string Headers() const;
};

// Values no generation has (0, a poison, sizeof instead of *_STRUCT_SIZE) are not evidence.
GenerationInference InferGeneration(const std::vector<WrittenSize>& written);

// Generations whose `struct_name` has struct_size `value`, newest first.
std::vector<const HeaderGeneration*> GenerationsHaving(const std::string& struct_name,
                                                       std::uint64_t value);

}  // namespace conformance::validate
