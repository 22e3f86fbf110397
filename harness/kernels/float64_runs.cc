#include "kernels/float64_runs.h"

#include <cstdint>
#include <vector>

#include "kernels/case_from_json.h"
#include "kernels/case_json.h"
#include "kernels/dtype_values.h"
#include "kernels/family_documents.h"
#include "kernels/host_tensor.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

// An input of the case's dtype in float64: each element's value, exact in double.
json Widened(const json& input, TF_DataType dtype) {
  HostTensor narrow{dtype, input.at("shape").get<core::Shape>(),
                    BytesFromHex(input.at("hex").get<std::string>())};
  HostTensor wide{TF_DOUBLE, narrow.shape,
                  std::vector<std::uint8_t>(static_cast<std::size_t>(narrow.NumElements()) *
                                            ElementSize(TF_DOUBLE))};
  for (std::int64_t i = 0; i < narrow.NumElements(); ++i)
    WriteElement(TF_DOUBLE, wide.bytes.data(), i, narrow.At(i));
  json widened = input;
  const json values = TensorJson(wide);
  widened["dtype"] = values.at("dtype");
  widened["hex"] = values.at("hex");
  return widened;
}

}  // namespace

std::variant<std::set<std::string>, std::string> JudgedInFloat64OfDocument(
    const YAML::Node& root, const std::string& file) {
  try {
    std::set<std::string> ops;
    const YAML::Node list = root["judged_in_float64"];
    if (!list) return ops;
    if (!list.IsSequence())
      return FamilyFileError(file, list.Mark(), "`judged_in_float64:` is a list of op names");
    for (const YAML::Node& op : list) {
      if (!op.IsScalar()) return FamilyFileError(file, op.Mark(), "an op name");
      ops.insert(op.as<std::string>());
    }
    return ops;
  } catch (const YAML::Exception& error) {
    return FamilyFileError(file, error.mark, error.msg);
  }
}

const std::set<std::string>& BuiltinJudgedInFloat64() {
  return BuiltinFamilyTables().judged_in_float64;
}

std::optional<json> Float64Run(const json& kernel_case) {
  const std::string dtype_name = kernel_case.value("dtype", "");
  if (dtype_name != "half" && dtype_name != "bfloat16") return std::nullopt;
  if (kernel_case.value("companion", false)) return std::nullopt;
  if (!BuiltinJudgedInFloat64().contains(kernel_case.value("op", ""))) return std::nullopt;
  const TF_DataType dtype = *DtypeFromName(dtype_name);
  const json narrow_type = {{"type", static_cast<int>(dtype)}};
  json run = {{"attrs", json::object()}, {"inputs", json::array()}};
  for (const auto& [name, value] : kernel_case.at("attrs").items())
    run["attrs"][name] = value == narrow_type ? json{{"type", static_cast<int>(TF_DOUBLE)}} : value;
  for (const json& input : kernel_case.at("inputs")) {
    const bool of_the_cells_dtype = input.value("dtype", "") == dtype_name && input.contains("hex");
    run["inputs"].push_back(of_the_cells_dtype ? Widened(input, dtype) : input);
  }
  return run;
}

}  // namespace conformance::kernels
