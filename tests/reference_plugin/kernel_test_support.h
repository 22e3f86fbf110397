#pragma once
// Running the reference plugin's kernels the way TensorFlow runs a kernel on a pluggable
// device, through the mock core's C++ API (harness/core):
//   - TF_InitKernel registers the kernels (once per process); the core records them;
//   - the registration is chosen by op, device type REFDEV and type constraints;
//   - inputs reach device memory through the plugin's allocate and an asynchronous
//     memcpy_htod on the kernel's stream; host-memory arguments stay on the host;
//   - create/compute/delete run through KernelInstance with a pluggable-device context whose
//     device allocator is the plugin's allocate/deallocate;
//   - after block_host_until_done, outputs come back with the plugin's sync_memcpy_dtoh.
//
//   KernelRunner runner(device());
//   KernelRun run = runner.run({.op = "AddV2", .attrs = {{"T", TF_FLOAT}},
//                               .inputs = {{"x", floats({2}, {1, 2})}, {"y", floats({}, {3})}},
//                               .outputs = {TF_FLOAT}});
//   EXPECT_EQ(run.values<float>(0), (std::vector<float>{4, 5}));
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/attributes.h"
#include "core/recorder.h"
#include "core/status.h"
#include "core/tensor.h"
#include "plugin_test_support.h"

namespace reference_plugin_test {

using conformance::core::AttrMap;
using conformance::core::Shape;
using conformance::core::Tensor;

// The kernels the reference plugin registered (TF_InitKernel is called on first use).
const std::vector<conformance::core::KernelRegistration>& reference_kernels();

struct KernelInput {
  std::string name;  // the op's argument name; host-memory arguments are found by it
  Tensor value;      // a host tensor; copied to the device unless the argument is host memory
};

// A DT_RESOURCE input (a handle from conformance::core::VariableStore) stays in host memory,
// as TensorFlow keeps resource handles.
struct KernelCall {
  std::string op;
  AttrMap attrs = {};
  std::vector<KernelInput> inputs = {};
  std::vector<TF_DataType> outputs = {};
  // Runs this registration instead of the reference plugin's (a test's own defective kernel).
  const conformance::core::KernelRegistration* registration = nullptr;
};

// Points in a run where a test may interfere (e.g. stall the stream).
struct RunHooks {
  std::function<void(SP_Stream)> before_inputs = {};  // before the input copies are queued
  std::function<void()> after_compute = {};           // compute returned, stream not yet synced
};

struct KernelRun {
  bool found = false;                      // a registration matched op, device and type constraints
  conformance::core::Status construction;  // what create_func reported
  conformance::core::Status compute;       // what compute_func reported
  TF_Code stream_code = TF_OK;             // block_host_until_done after compute
  std::vector<Tensor> outputs;             // host copies; an output never set stays an empty Tensor
  std::vector<bool> output_set;
  int64_t leaked_tensors = 0;   // TF_Tensor handles created during the run and not released
  int64_t leaked_statuses = 0;  // same for TF_Status
  bool ok() const { return found && construction.ok() && compute.ok() && stream_code == TF_OK; }

  template <typename T>
  std::vector<T> values(int i) const {
    return outputs.at(static_cast<std::size_t>(i)).ToVector<T>();
  }
  const Shape& shape(int i) const { return outputs.at(static_cast<std::size_t>(i)).shape(); }
};

class KernelRunner {
 public:
  explicit KernelRunner(const TestDevice& device);
  KernelRun run(const KernelCall& call, const RunHooks& hooks = {});
  const TestStream& stream() const { return stream_; }
  // A device copy of a host tensor (allocated with the plugin, copied synchronously), e.g. a
  // variable's value, and a host copy of a device tensor.
  Tensor to_device(const Tensor& host) const;
  Tensor to_host(const Tensor& on_device) const;

 private:
  const TestDevice& device_;
  TestStream stream_;
};

// Fixture: device 0 of a fresh registration and a runner on a stream of it. run() also
// checks what every kernel call must do: find its registration and release every TF_Tensor and
// TF_Status handle it got from the core.
class ReferenceKernelTest : public ReferencePluginTest {
 protected:
  void SetUp() override;
  void TearDown() override;
  KernelRun run(const KernelCall& call, const RunHooks& hooks = {});

  std::unique_ptr<KernelRunner> runner_;
};

// Host tensors from values.
Tensor floats(Shape shape, const std::vector<float>& values);
Tensor doubles(Shape shape, const std::vector<double>& values);
Tensor int32s(Shape shape, const std::vector<int32_t>& values);
Tensor int64s(Shape shape, const std::vector<int64_t>& values);
Tensor bools(Shape shape, const std::vector<bool>& values);
// 16-bit floats given by their bit patterns (dtype TF_HALF or TF_BFLOAT16).
Tensor bits16(TF_DataType dtype, Shape shape, const std::vector<uint16_t>& bits);

}  // namespace reference_plugin_test
