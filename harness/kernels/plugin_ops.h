#pragma once
// The ops a plugin defines itself (ops.h: TF_NewOpDefinitionBuilder, TF_RegisterOpDefinition),
// so a vendor's kernel scenario for one of them (ITEX's _ITEX* ops, zentf's _Zen*) is checked
// against its definition like a catalogue op's. Reading them needs the plugin loaded, which is
// done in a child process (plugin_op_listing.h), never here; it costs a process start and the
// plugin's TF_InitKernel, so it happens at most once, and only when a scenario names an op
// that neither the catalogue nor TensorFlow's registry holds.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/recorder.h"
#include "ops/op_def.h"

namespace conformance::kernels {

// What the listing child sent: the plugin's op registrations (spec strings as the plugin gave
// them), or why they could not be read.
struct PluginOpsListing {
  std::vector<core::OpRegistration> ops;
  std::string error;  // empty when listed
};

class PluginOps {
 public:
  using Lister = std::function<PluginOpsListing()>;
  explicit PluginOps(Lister lister) : lister_(std::move(lister)) {}

  // The plugin's definition of `name` (lists on first use); nullptr when it defines none that
  // parses (see Broken).
  std::shared_ptr<const ops::OpDef> Find(std::string_view name);
  // Every op the plugin defines, sorted (lists on first use).
  std::vector<std::string> Names();
  // Why the plugin's ops could not be listed; empty when they were (lists on first use).
  const std::string& ListingError();
  // TensorFlow's message for a definition of `name` that does not parse (load.kernels.
  // op_definitions fails it); nullopt when it parses or the plugin does not define it.
  std::optional<std::string> Broken(std::string_view name);
  bool listed() const { return listed_; }

 private:
  void ListOnce();

  Lister lister_;
  bool listed_ = false;
  std::string error_;
  std::map<std::string, std::shared_ptr<const ops::OpDef>, std::less<>> defined_;
  std::map<std::string, std::string, std::less<>> broken_;
};

}  // namespace conformance::kernels
