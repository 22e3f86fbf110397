#include "validate/kernel_registrations.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/datatype.h"
#include "ops/catalogue.h"
#include "ops/op_builder.h"
#include "model/tensorflow_fails_at.h"
#include "ops/op_summary.h"
#include "ops/registry.h"

namespace conformance::validate {
namespace {

using core::KernelRegistration;

std::string Describe(const KernelRegistration& kernel) {
  std::string text = kernel.op_name + " on " + kernel.device_type;
  for (const auto& [attr, type] : kernel.type_constraints) {
    text += " " + attr + "=" + core::DataTypeName(static_cast<TF_DataType>(type));
  }
  if (!kernel.label.empty()) text += " label=" + kernel.label;
  if (kernel.priority != 0) text += " priority=" + std::to_string(kernel.priority);
  return text;
}

void Append(std::string& list, const std::string& item) {
  list += (list.empty() ? "" : "; ") + item;
}

// The op definitions kernels are checked against: the plugin's own first (an op TensorFlow
// does not have), then TensorFlow's registry.
class OpLookup {
 public:
  OpLookup(const std::vector<core::OpRegistration>& plugin_ops,
           const ops::OpRegistry& tensorflow_ops)
      : tensorflow_ops_(tensorflow_ops) {
    for (const auto& op : plugin_ops) plugin_ops_[op.name] = ops::BuildFromRegistration(op);
  }
  const ops::OpDef* Find(const std::string& name) const {
    auto it = plugin_ops_.find(name);
    return it != plugin_ops_.end() ? &it->second.op : tensorflow_ops_.Find(name);
  }
  const std::string& release() const { return tensorflow_ops_.release(); }
  // The op exists, but with a definition that does not parse (load.kernels.op_definitions
  // reports it): kernels for it are not judged against what is left of it.
  const ops::OpDef* FindIntact(const std::string& name) const {
    auto it = plugin_ops_.find(name);
    if (it != plugin_ops_.end() && !it->second.ok()) return nullptr;
    return Find(name);
  }

 private:
  const ops::OpRegistry& tensorflow_ops_;
  std::map<std::string, ops::OpBuild> plugin_ops_;
};

void CheckOpsExist(const std::vector<KernelRegistration>& kernels, const OpLookup& lookup,
                   CheckLog& log) {
  std::string unknown;
  for (const auto& kernel : kernels) {
    if (lookup.Find(kernel.op_name) == nullptr) Append(unknown, Describe(kernel));
  }
  if (unknown.empty()) {
    log.Pass("load.kernels.op_exists");
    return;
  }
  // A warning: the op may come from a library the plugin's Python package loads itself
  // (tf.load_op_library), which no registry here knows.
  log.Warn("load.kernels.op_exists",
           "kernels for ops that TensorFlow " + lookup.release() +
               " does not register and the plugin does not define through ops.h (TensorFlow logs "
               "\"OpKernel ('...') for unknown op\" and never runs them): " +
               unknown,
           {{"failing_call", "TF_NewKernelBuilder"}, {"problem", "kernel for an unknown op"}});
}

void CheckDeviceTypes(const std::vector<KernelRegistration>& kernels, const SeModuleOutcome& se,
                      CheckLog& log) {
  if (se.exported && !se.device_type) {
    log.Skip("load.kernels.device_type",
             "the plugin's device type is unknown (SP_Platform.type is not set)");
    return;
  }
  const std::string own = se.device_type.value_or("");
  std::string foreign, cpu;
  for (const auto& kernel : kernels) {
    if (kernel.device_type == own) continue;
    if (kernel.device_type == "CPU") {
      Append(cpu, Describe(kernel));
    } else {
      Append(foreign, Describe(kernel));
    }
  }
  const std::string expected = own.empty() ? std::string("(no StreamExecutor module)") : own;
  const Details details = {{"failing_call", "TF_NewKernelBuilder"},
                           {"problem", "kernel for a foreign device type"}};
  if (!foreign.empty()) {
    log.Fail("load.kernels.device_type",
             "kernels registered for a device type other than the plugin's own " + expected +
                 " (they never run on the plugin's devices; GPU kernels compete with TensorFlow's "
                 "own): " +
                 foreign + (cpu.empty() ? "" : "; and for CPU: " + cpu),
             std::nullopt, details);
  } else if (!cpu.empty() && !se.exported) {
    // No device of its own and every kernel for CPU: a CPU kernel plugin (ITEX's CPU build,
    // AMD's ZenDNN plugin). TensorFlow runs these kernels on its CPU device; nothing is wrong.
    log.Pass("load.kernels.device_type",
             {{"plugin_category", "CPU kernel plugin"},
              {"note", "no SE_InitPlugin; its kernels are for TensorFlow's CPU device: " + cpu}});
  } else if (!cpu.empty()) {
    log.Warn("load.kernels.device_type",
             "kernels registered for CPU, not the plugin's own device type " + expected +
                 " (they compete with TensorFlow's CPU kernels): " + cpu,
             details);
  } else {
    log.Pass("load.kernels.device_type");
  }
}

void CheckConstraints(const std::vector<KernelRegistration>& kernels, const OpLookup& lookup,
                      CheckLog& log) {
  std::string wrong_attr, wrong_type, unconstrained;
  for (const auto& kernel : kernels) {
    const ops::OpDef* op = lookup.FindIntact(kernel.op_name);
    if (op == nullptr) continue;  // reported by load.kernels.op_exists or op_definitions
    for (const auto& [attr, value] : kernel.type_constraints) {
      const auto dtype = static_cast<TF_DataType>(value);
      const ops::AttrDef* def = op->FindAttr(attr);
      if (def == nullptr || def->element_type() != "type") {
        Append(wrong_attr, Describe(kernel) + ": " + op->name + " has no type attr '" + attr + "'");
        continue;
      }
      const auto allowed = ops::AllowedTypes(*op, attr);
      if (core::IsKernelConstraintType(dtype) &&
          std::find(allowed.begin(), allowed.end(), dtype) == allowed.end()) {
        Append(wrong_type, Describe(kernel) + ": " + op->name + "'s " + attr + " does not allow " +
                               core::DataTypeName(dtype));
      }
    }
    for (const auto& attr : op->attrs) {
      if (attr.type != "type") continue;
      const bool constrained =
          std::any_of(kernel.type_constraints.begin(), kernel.type_constraints.end(),
                      [&](const auto& c) { return c.first == attr.name; });
      if (!constrained) Append(unconstrained, Describe(kernel) + ": " + attr.name);
    }
  }
  if (wrong_attr.empty()) {
    log.Pass("load.kernels.constraint_attr");
  } else {
    log.Fail(
        "load.kernels.constraint_attr",
        "type constraints on attrs the op does not have as type attrs (TensorFlow fails every node "
        "of the op with \"OpKernel ... has constraint on attr ... not in NodeDef\"): " +
            wrong_attr,
        std::nullopt,
        {{"failing_call", "TF_KernelBuilder_TypeConstraint"},
         {"problem", "constraint on a missing attr"}});
  }
  if (wrong_type.empty()) {
    log.Pass("load.kernels.constraint_dtype");
  } else {
    log.Warn(
        "load.kernels.constraint_dtype",
        "type constraints with a dtype the op does not allow (the kernel never matches a node): " +
            wrong_type,
        {{"failing_call", "TF_KernelBuilder_TypeConstraint"},
         {"problem", "dtype the op does not allow"}});
  }
  if (unconstrained.empty()) {
    log.Pass("load.kernels.unconstrained");
  } else {
    log.Warn(
        "load.kernels.unconstrained",
        "type attrs left unconstrained: the kernel claims every dtype the op allows (the kernel "
        "tier runs it with each): " +
            unconstrained,
        {{"failing_call", "TF_KernelBuilder_TypeConstraint"},
         {"problem", "type attr unconstrained"}});
  }
}

void CheckHostMemory(const std::vector<KernelRegistration>& kernels, const OpLookup& lookup,
                     CheckLog& log) {
  std::string problems, tensorflow_message;
  for (const auto& kernel : kernels) {
    const ops::OpDef* op = lookup.FindIntact(kernel.op_name);
    if (op == nullptr) continue;
    for (const auto& arg : kernel.host_memory_args) {
      if (op->FindInput(arg) != nullptr || op->FindOutput(arg) != nullptr) continue;
      Append(problems, Describe(kernel) + ": '" + arg + "'");
      // TensorFlow stops at the first kernel it finds so (its kernel registry's order, which
      // is registration order for one kernel per op): the status quotes the op's definition.
      if (tensorflow_message.empty()) {
        tensorflow_message =
            "HostMemory arg '" + arg + "' not found in OpDef: " + ops::SummarizeOpDef(*op);
      }
    }
  }
  if (problems.empty()) {
    log.Pass("load.kernels.host_memory");
    return;
  }
  // TensorFlow validates every kernel against its op when the registries are first used (the
  // plugin's first op) and aborts the process with this INVALID_ARGUMENT.
  log.Fail("load.kernels.host_memory", tensorflow_message, TF_INVALID_ARGUMENT,
           {{"failing_call", "TF_KernelBuilder_HostMemory"},
            {"problem", "host memory on a missing argument"},
            {"where", problems},
            {std::string(kTensorFlowFailsAt), std::string(kAtFirstUse)}});
}

void CheckDuplicates(const std::vector<KernelRegistration>& kernels, CheckLog& log) {
  using Key = std::tuple<std::string, std::string, std::multiset<std::pair<std::string, int>>,
                         std::string, int32_t>;
  std::map<Key, int> seen;
  std::string problems;
  for (const auto& kernel : kernels) {
    std::multiset<std::pair<std::string, int>> constraints(kernel.type_constraints.begin(),
                                                           kernel.type_constraints.end());
    if (++seen[{kernel.op_name, kernel.device_type, constraints, kernel.label, kernel.priority}] ==
        2) {
      Append(problems, Describe(kernel));
    }
  }
  log.Expect("load.kernels.duplicates", problems.empty(),
             "kernels registered more than once: " + problems);
}

}  // namespace

std::vector<std::string> KernelRegistrationCheckIds() {
  return {"load.kernels.op_exists",       "load.kernels.device_type",
          "load.kernels.constraint_attr", "load.kernels.constraint_dtype",
          "load.kernels.unconstrained",   "load.kernels.host_memory",
          "load.kernels.duplicates"};
}

void CheckKernelRegistrations(const PluginRegistrations& registered, const SeModuleOutcome& se,
                              const ops::OpRegistry& tensorflow_ops, CheckLog& log) {
  const OpLookup lookup(registered.ops, tensorflow_ops);
  CheckOpsExist(registered.kernels, lookup, log);
  CheckDeviceTypes(registered.kernels, se, log);
  CheckConstraints(registered.kernels, lookup, log);
  CheckHostMemory(registered.kernels, lookup, log);
  CheckDuplicates(registered.kernels, log);
}

}  // namespace conformance::validate
