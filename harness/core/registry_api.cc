// c_api.h's registry and version functions (TF_Version, TF_GetAllOpList,
// TF_GetRegisteredKernelsForOp) and c_api_experimental.h's TF_OpIsStateful. TensorFlow answers
// them from its process-wide registries; here the op registry is the emulated release's
// (emulated_release.h) and the kernel registry is what plugins registered (the Recorder):
// the core has no kernels of its own. Behaviour measured on the 2.15.1 and 2.21.0 wheels.
#include <optional>
#include <string>
#include <string_view>

#include "core/buffer.h"
#include "core/emulated_release.h"
#include "core/proto_wire.h"
#include "core/recorder.h"
#include "core/status.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"

namespace core = conformance::core;

namespace {

// OpDef.is_stateful (17) of `name` in the emulated release; nullopt when it has no such op.
std::optional<bool> EmulatedOpIsStateful(std::string_view name) {
  const std::optional<std::string> op = core::EmulatedOpDef(name);
  if (!op) return std::nullopt;
  bool stateful = false;
  core::ProtoReader def(*op);
  core::ProtoReader::Field field;
  while (def.Next(&field)) {
    if (field.number == 17 && field.wire_type == core::ProtoReader::kVarint) {
      stateful = field.value != 0;
    }
  }
  return stateful;
}

// An op a plugin registered (successfully) through ops.h; the newest registration wins.
std::optional<bool> PluginOpIsStateful(std::string_view name) {
  std::optional<bool> stateful;
  for (const core::OpRegistration& op : core::Recorder::Instance().Ops()) {
    if (op.name == name && op.status_code == TF_OK) stateful = op.is_stateful;
  }
  return stateful;
}

// KernelDef (op 1, device_type 2, constraint 3, host_memory_arg 4, label 5, priority 6); a
// constraint is AttrConstraint (name 1, allowed_values 2 = AttrValue{list 1 = {type 6}}).
std::string SerializeKernelDef(const core::KernelRegistration& kernel) {
  core::ProtoWriter def;
  def.Bytes(1, kernel.op_name);
  def.Bytes(2, kernel.device_type);
  for (const auto& [attr, dtype] : kernel.type_constraints) {
    core::ProtoWriter types;
    types.Varint(6, static_cast<uint64_t>(dtype));
    core::ProtoWriter allowed;
    allowed.Message(1, types);
    core::ProtoWriter constraint;
    constraint.Bytes(1, attr);
    constraint.Message(2, allowed);
    def.Message(3, constraint);
  }
  for (const std::string& arg : kernel.host_memory_args) def.Bytes(4, arg);
  if (!kernel.label.empty()) def.Bytes(5, kernel.label);
  if (kernel.priority != 0)
    def.Varint(6, static_cast<uint64_t>(static_cast<int64_t>(kernel.priority)));
  return def.data();
}

}  // namespace

extern "C" {

const char* TF_Version(void) { return core::EmulatedVersion().c_str(); }

TF_Buffer* TF_GetAllOpList(void) {
  const std::string& op_list = core::EmulatedOpList();
  return TF_NewBufferFromString(op_list.data(), op_list.size());
}

// TensorFlow: an unknown op is NOT_FOUND "Op type not registered ..." and 0, "" included.
int TF_OpIsStateful(const char* op_type, TF_Status* status) {
  const std::string_view name = op_type == nullptr ? std::string_view() : op_type;
  std::optional<bool> stateful = PluginOpIsStateful(name);
  if (!stateful) stateful = EmulatedOpIsStateful(name);
  if (!stateful) {
    status->status = core::Status::Error(
        TF_NOT_FOUND, "Op type not registered '" + std::string(name) +
                          "' in binary running on plugin_conformance mock core (the op registry "
                          "of TensorFlow " +
                          core::EmulatedVersion() + " and the plugin's ops)");
    return 0;
  }
  status->status = core::Status::Ok();
  return *stateful ? 1 : 0;
}

// TensorFlow: a KernelList of the op's kernels; an op without kernels (or unknown) is an empty
// list with an OK status.
TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  const std::string_view op = name == nullptr ? std::string_view() : name;
  core::ProtoWriter list;
  for (const core::KernelRegistration& kernel : core::Recorder::Instance().Kernels()) {
    if (kernel.op_name == op) list.Bytes(1, SerializeKernelDef(kernel));
  }
  status->status = core::Status::Ok();
  return TF_NewBufferFromString(list.data().data(), list.data().size());
}

}  // extern "C"
