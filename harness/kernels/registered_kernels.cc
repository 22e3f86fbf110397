#include "kernels/registered_kernels.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "kernels/dtype_values.h"

#include "kernels/kernel_target.h"
#include "kernels/plugin_listing.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// Every kernel for the plugin's own device, as {op, constraints, label}, and what the kernel
// units check before they look for an op: TF_InitKernel exported, the device type.
json OwnDeviceKernels(KernelTarget& target) {
  json kernels = json::array();
  for (const core::KernelRegistration& kernel : target.kernels()) {
    if (kernel.device_type != target.device_type()) continue;
    kernels.push_back({{"op", kernel.op_name},
                       {"constraints", kernel.type_constraints},
                       {"label", kernel.label}});
  }
  return {{"exports_init_kernel", target.exports_init_kernel()},
          {"device_type", target.device_type()},
          {"kernels", std::move(kernels)}};
}

}  // namespace

std::variant<KernelListing, std::string> ListKernels(const std::string& plugin_path,
                                                     unsigned timeout_seconds) {
  auto listing = ListFromPlugin(plugin_path, timeout_seconds, "the plugin's kernel registrations",
                                OwnDeviceKernels);
  if (const auto* why = std::get_if<std::string>(&listing)) return *why;
  const json& listed = std::get<json>(listing);
  KernelListing kernels;
  kernels.exports_init_kernel = listed.at("exports_init_kernel").get<bool>();
  kernels.device_type = listed.at("device_type").get<std::string>();
  for (const json& kernel : listed.at("kernels")) {
    const std::string op = kernel.at("op").get<std::string>();
    kernels.own_device_ops.insert(op);
    // TensorFlow runs a labelled kernel only for nodes that ask for its label.
    if (!kernel.at("label").get<std::string>().empty()) continue;
    kernels.unlabelled.push_back(
        {op, kernel.at("constraints").get<std::vector<std::pair<std::string, int>>>()});
  }
  return kernels;
}

std::variant<std::vector<RegisteredKernel>, std::string> ListRegisteredKernels(
    const std::string& plugin_path, unsigned timeout_seconds) {
  auto listing = ListKernels(plugin_path, timeout_seconds);
  if (auto* why = std::get_if<std::string>(&listing)) return std::move(*why);
  return std::move(std::get<KernelListing>(listing).unlabelled);
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
