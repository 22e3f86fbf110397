// The reference plugin's StreamExecutor, except inside the installed TensorFlow, where its
// SE_InitPlugin goes wrong in the one way chosen at build time:
//   -DREFUSED_IN_TENSORFLOW  returns FAILED_PRECONDITION (TensorFlow refuses the plugin)
//   -DCRASHES_IN_TENSORFLOW  segfaults
//   -DHANGS_IN_TENSORFLOW    never returns
// In plugin_conformance's own children it loads like the reference plugin, so the emulated
// verdict is "loads" and only the --tensorflow leg sees the failure (tests/installed_deaths).
#include <chrono>
#include <thread>

#include "../support/inside_tensorflow.h"
#include "../support/reference_init.h"

namespace {

// The text TensorFlow reads back; installed_deaths_test.py looks for it in the result.
[[maybe_unused]] constexpr const char* kRefusal =
    "load_in_tensorflow: refuses to run inside TensorFlow";

void GoWrongInsideTensorFlow([[maybe_unused]] TF_Status* status) {
  if (!conformance::test_support::InsideInstalledTensorFlow()) return;
#if defined(REFUSED_IN_TENSORFLOW)
  TF_SetStatus(status, TF_FAILED_PRECONDITION, kRefusal);
#elif defined(CRASHES_IN_TENSORFLOW)
  conformance::test_support::SegfaultHere();
#elif defined(HANGS_IN_TENSORFLOW)
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#else
#error "define REFUSED_IN_TENSORFLOW, CRASHES_IN_TENSORFLOW or HANGS_IN_TENSORFLOW"
#endif
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void SE_InitPlugin(
    SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "load_in_tensorflow")) {
    return;
  }
  GoWrongInsideTensorFlow(status);
}
