#pragma once
// A whole op from its spec strings, as TensorFlow's OpDefBuilder finalizes and validates it:
// attrs first, then inputs and outputs, whose type names must name a dtype or a type attr.
#include <string>
#include <vector>

#include "core/recorder.h"
#include "ops/op_def.h"

namespace conformance::ops {

struct OpBuild {
  OpDef op;  // everything that parsed
  // Every spec that did not, in TensorFlow's order; an argument naming an attr whose spec
  // failed is left out without an error of its own (TensorFlow adds one per such argument).
  std::vector<SpecError> errors;
  // Every error TensorFlow's builder reports, in its order: `errors` plus one per argument
  // naming an attr whose spec failed (TensorFlow keeps such an attr, typeless, and each
  // argument's reference to it fails: "Reference to attr 'T' with type  that isn't type or
  // list(type)", with the empty type). TensorFlow's status lists them all, one a line.
  std::vector<SpecError> tensorflow_errors;
  bool ok() const { return errors.empty(); }
};

OpBuild BuildOpDef(std::string name, const std::vector<std::string>& attrs,
                   const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

// The op a plugin registered through ops.h; errors are dropped (see BuildOpDef for them).
OpDef FromRegistration(const core::OpRegistration& registration);
// BuildOpDef of a registration.
OpBuild BuildFromRegistration(const core::OpRegistration& registration);

}  // namespace conformance::ops
