#include "kernels/registered_kernels.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "kernels/dtype_values.h"

#include "kernels/kernel_target.h"
#include "kernels/plugin_listing.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// The kernels for the plugin's own device without a label, as {op, constraints}.
json OwnDeviceKernels(KernelTarget& target) {
  json kernels = json::array();
  for (const core::KernelRegistration& kernel : target.kernels()) {
    if (kernel.device_type != target.device_type() || !kernel.label.empty()) continue;
    kernels.push_back({{"op", kernel.op_name}, {"constraints", kernel.type_constraints}});
  }
  return kernels;
}

}  // namespace

std::variant<std::vector<RegisteredKernel>, std::string> ListRegisteredKernels(
    const std::string& plugin_path, unsigned timeout_seconds) {
  auto listing = ListFromPlugin(plugin_path, timeout_seconds, "the plugin's kernel registrations",
                                OwnDeviceKernels);
  if (const auto* why = std::get_if<std::string>(&listing)) return *why;
  std::vector<RegisteredKernel> kernels;
  for (const json& kernel : std::get<json>(listing)) {
    kernels.push_back({kernel.at("op").get<std::string>(),
                       kernel.at("constraints").get<std::vector<std::pair<std::string, int>>>()});
  }
  return kernels;
}

std::vector<std::pair<std::string, std::string>> RegisteredCellNames(
    const std::vector<RegisteredKernel>& kernels, const ops::OpRegistry* registry) {
  std::vector<std::pair<std::string, std::string>> cells;
  for (const RegisteredKernel& kernel : kernels) {
    const ops::OpDef* def = registry != nullptr ? registry->Find(kernel.op) : nullptr;
    const std::optional<TF_DataType> dtype = CellDtype(kernel, def);
    std::pair<std::string, std::string> cell{kernel.op, dtype ? DtypeName(*dtype) : "*"};
    if (std::find(cells.begin(), cells.end(), cell) == cells.end())
      cells.push_back(std::move(cell));
  }
  return cells;
}

}  // namespace conformance::kernels
