// The fixture's one entry point: TFNPD_InitPlugin over next_pluggable_device.cc's host-memory
// table. The library exports nothing else (no SE_InitPlugin, no GetPjrtApi).
#include "next_pluggable_device.h"
#include "stream_executor/status.h"

extern "C" __attribute__((visibility("default"))) const TFNPD_Api* TFNPD_InitPlugin(
    TFNPD_PluginParams* params, TF_Status* status) {
  const TFNPD_Api* api = nullptr;
  reference_plugin::run_and_report(status, [&] {
    reference_plugin::Status result;
    api = reference_plugin::npd::init_plugin(params, &result);
    return result;
  });
  return api;
}
