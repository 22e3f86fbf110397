#pragma once
// Whether a core generation lets a plugin's kernel update a resource variable. Kernels such as
// ResourceApplyGradientDescent need the variable functions of kernels_experimental.h, and
// TensorFlow 2.21.0 exports none of them to plugins (kernels_experimental.cc is not linked into
// its wheel), so under that profile no plugin can register such a kernel usefully. The models
// tier (a model whose variables such kernels update) and the kernel tier (cases with a
// variable input) both say so from here, in the same words.
#include <optional>
#include <string>
#include <vector>

namespace conformance::validate {

// What a kernel needs from the core to update a resource variable.
const std::vector<std::string>& VariableFunctions();

// Why no plugin can run `updaters` (the ops that update variables, in the order to name them)
// under profile `profile_name`, for `needed_by` ("this model's variables"); nullopt when the
// profile exports every variable function, or is unknown, or `updaters` is empty.
std::optional<std::string> VariableUpdatesUnavailable(const std::string& profile_name,
                                                      const std::vector<std::string>& updaters,
                                                      const std::string& needed_by);

}  // namespace conformance::validate
