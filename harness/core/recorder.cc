// The one Recorder of the process. This file is linked into libtensorflow_framework.so.2
// only; _pywrap_tensorflow_internal.so reaches it through its DT_NEEDED on the framework
// library, so plugins linked either way record into the same place.
#include "core/recorder.h"

#include <mutex>

namespace conformance::core {

struct Recorder::State {
  mutable std::mutex mu;
  std::string plugin;
  std::vector<KernelRegistration> kernels;
  std::vector<OpRegistration> ops;
  std::vector<CallError> errors;
  LiveHandles live;
};

Recorder& Recorder::Instance() {
  // Never destroyed: plugins may release handles from static destructors at exit.
  static Recorder* const instance = new Recorder();
  return *instance;
}

Recorder::State& Recorder::state() const {
  static State* const state = new State();
  return *state;
}

void Recorder::SetCurrentPlugin(std::string plugin) {
  std::lock_guard lock(state().mu);
  state().plugin = std::move(plugin);
}

std::string Recorder::CurrentPlugin() const {
  std::lock_guard lock(state().mu);
  return state().plugin;
}

std::vector<KernelRegistration> Recorder::Kernels() const {
  std::lock_guard lock(state().mu);
  return state().kernels;
}

std::vector<OpRegistration> Recorder::Ops() const {
  std::lock_guard lock(state().mu);
  return state().ops;
}

std::vector<CallError> Recorder::CallErrors() const {
  std::lock_guard lock(state().mu);
  return state().errors;
}

LiveHandles Recorder::Live() const {
  std::lock_guard lock(state().mu);
  return state().live;
}

void Recorder::Clear() {
  std::lock_guard lock(state().mu);
  state().kernels.clear();
  state().ops.clear();
  state().errors.clear();
}

// The Add* functions attribute an entry to the current plugin when the caller left
// `plugin` empty, under the same lock, so a concurrent SetCurrentPlugin cannot split it.
void Recorder::AddKernel(KernelRegistration kernel) {
  std::lock_guard lock(state().mu);
  if (kernel.plugin.empty()) kernel.plugin = state().plugin;
  state().kernels.push_back(std::move(kernel));
}

void Recorder::AddOp(OpRegistration op) {
  std::lock_guard lock(state().mu);
  if (op.plugin.empty()) op.plugin = state().plugin;
  state().ops.push_back(std::move(op));
}

void Recorder::AddCallError(CallError error) {
  std::lock_guard lock(state().mu);
  if (error.plugin.empty()) error.plugin = state().plugin;
  state().errors.push_back(std::move(error));
}

void Recorder::CountHandle(int64_t LiveHandles::*kind, int64_t delta) {
  std::lock_guard lock(state().mu);
  state().live.*kind += delta;
}

}  // namespace conformance::core
