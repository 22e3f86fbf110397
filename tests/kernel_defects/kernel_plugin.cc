// A small kernel plugin on the reference plugin's device: its StreamExecutor is the reference
// plugin's (loaded with dlopen and forwarded), and it registers one AddV2 kernel of its own for
// float, double, int32 and int64, written the way a device kernel must be (inputs through
// TF_GetInput, output through TF_AllocateOutput, the arithmetic queued on TF_GetStream's
// stream, every handle released, every error passed on).
//
// Built several times: without a DEFECT_* switch it is the correct plugin (and the test
// oracle, until the reference plugin has kernels of its own); each -DDEFECT_<NAME> adds exactly
// one defect that exactly one kernel-tier check must catch; -DNO_KERNELS drops TF_InitKernel;
// -DLABEL_ONLY registers AddV2 only under a label (nothing can run it, nothing may pass).
// -DLEGAL_<NAME> variants are legal patterns the kernel tier must accept (a device whose
// host_callback runs inline, a Sum that adds in a different order on every run, a MatMul that
// flushes denormal results to zero as TensorFlow's own CPU kernels do). Sum, Softmax and MatMul
// kernels exist only in the variants about them (float only), as do the edge-value defects of
// edge_value_kernels.cc (Relu6, Elu, Mean, Max, BatchMatMulV2, Conv2D).
// Two variants stand for vendors' legitimate or test-only behaviour (vendor_options_test.cc):
// -DTF32_MATMUL adds a float MatMul that rounds its operands to TF32 (10 mantissa bits), as
// tensor cores do, and -DFLAKY_EVERY_OTHER_RUN computes AddV2 wrongly in every second process
// that runs it, counted in the file $FLAKY_COUNTER_FILE (always right when it is unset).
// Two are defects only the installed TensorFlow reaches (tests/installed_deaths):
// -DDEFECT_CRASHES_IN_TENSORFLOW and -DDEFECT_HANGS_IN_TENSORFLOW make AddV2's compute segfault
// or never return there, and stay correct in plugin_conformance's own children.
// -DDEFECT_WRONG_IN_TENSORFLOW makes AddV2's first element off by one there, and only there.
// -DDEFECT_HOST_MEMORY_IN_TENSORFLOW registers AddV2 there with a HostMemory argument AddV2 does
// not have: TensorFlow's registry refuses the kernel when the first op looks it up.
// -DSLOW_IN_TENSORFLOW makes it sleep SLOW_KERNEL_MS (default 4500) per call there and compute
// the right values: slow but correct, as a kernel that JIT-compiles per shape is.
// -DDEFECT_VALUES_VARY makes every other AddV2 computation off by one: a kernel whose values vary
// between identical runs, which is not an ordering or caching bug (kernel_defects_test.cc).
// -DDEFECT_WORK_OFF_STREAM_STARVED is DEFECT_WORK_OFF_STREAM on a loaded machine: the thread of
// the second computation never gets to run before the process ends, past any wait the tier makes
// (the same verdict is expected: the late writer, once, on kernel.AddV2.work_after_compute).
// -DDIRTY_DEVICE_MEMORY drops TensorFlow's BFC allocator and fills every allocation with 0xff,
// for the input-class kernels of input_class_kernels.cc (an unwritten output reads NaN).
// -DDEFECT_SHARED_SCRATCH keeps AddV2's work arguments in the kernel object, so two computes of
// one kernel at once race on them (TensorFlow runs a kernel's compute from several threads).
// -DDEFECT_INPUT_AS_OUTPUT writes AddV2's result into input 0 and sets that buffer as the output
// with TF_SetOutput (a caller still holding the input reads the sum); -DLEGAL_FORWARDS_INPUT
// reuses an input's buffer only where TF_ForwardInputOrAllocateOutput grants it.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#if defined(DEFECT_WORK_OFF_STREAM_STARVED)
#define DEFECT_WORK_OFF_STREAM
#endif

#include "../support/inside_tensorflow.h"
#include "../support/reference_init.h"
#include "kernel_call.h"
#include "matmul_shape.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifndef REFERENCE_PLUGIN_PATH
#error "REFERENCE_PLUGIN_PATH must name libreference_plugin.so"
#endif

#define EXPORT extern "C" __attribute__((visibility("default")))

using kernel_plugin::Dims;
using kernel_plugin::DimsOf;
using kernel_plugin::KernelCall;
using kernel_plugin::MatMulDims;
using kernel_plugin::MatMulDimsOf;
using kernel_plugin::MatMulTransposes;
using kernel_plugin::NumElements;

namespace {

SP_PlatformFns g_platform_fns;  // the reference's
SP_StreamExecutor g_se;         // the reference's table: host_callback queues kernel work
SP_Device g_device;             // what create_device filled (the reference finds itself by handle)
const char* g_device_type = nullptr;

#if defined(LEGAL_SYNCHRONOUS_DEVICE)
// A synchronous device: host_callback waits for the stream, then runs the callback at once on
// the caller's thread (legal: the callback still runs after everything queued before it).
decltype(SP_StreamExecutor::block_host_until_done) g_reference_block_host_until_done = nullptr;

TF_Bool InlineHostCallback(const SP_Device* device, SP_Stream stream, SE_StatusCallbackFn fn,
                           void* arg) {
  TF_Status* status = TF_NewStatus();
  g_reference_block_host_until_done(device, stream, status);
  if (TF_GetCode(status) == TF_OK) fn(arg, status);
  TF_DeleteStatus(status);
  return 1;
}
#endif

#if defined(DEFECT_ABSURD_OUTPUT_SIZE)
// Vulten's allocate: the size goes through a uint32_t, so any request "succeeds". TensorFlow's
// allocator refuses a tensor beyond the device's memory before asking; if the harness asked,
// the kernel would write 4 TiB into the few bytes this returns.
decltype(SP_StreamExecutor::allocate) g_reference_allocate = nullptr;
void TruncatingAllocate(const SP_Device* device, uint64_t size, int64_t space,
                        SP_DeviceMemoryBase* mem) {
  g_reference_allocate(device, static_cast<uint32_t>(size), space, mem);
  mem->size = size;
}
#endif

#if defined(DIRTY_DEVICE_MEMORY)
// Device memory holding old data, as a real device's does: every allocation comes back filled
// with 0xff bytes (NaN as float), so a kernel that leaves its output unwritten shows NaN every
// time (input_class_kernels.cc). The platform drops TensorFlow's BFC allocator, so each tensor
// is one allocation here.
decltype(SP_StreamExecutor::allocate) g_clean_allocate = nullptr;
void DirtyAllocate(const SP_Device* device, uint64_t size, int64_t space,
                   SP_DeviceMemoryBase* mem) {
  g_clean_allocate(device, size, space, mem);
  if (mem->opaque != nullptr) std::memset(mem->opaque, 0xff, size);
}
#endif

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_platform_fns.create_stream_executor(platform, params, status);
#if defined(DIRTY_DEVICE_MEMORY)
  g_clean_allocate = params->stream_executor->allocate;
  params->stream_executor->allocate = DirtyAllocate;
#endif
#if defined(DEFECT_ABSURD_OUTPUT_SIZE)
  g_reference_allocate = params->stream_executor->allocate;
  params->stream_executor->allocate = TruncatingAllocate;
#endif
#if defined(LEGAL_SYNCHRONOUS_DEVICE)
  g_reference_block_host_until_done = params->stream_executor->block_host_until_done;
  params->stream_executor->host_callback = InlineHostCallback;
#endif
  if (TF_GetCode(status) == TF_OK) g_se = *params->stream_executor;
}

void CreateDevice(const SP_Platform* platform, SE_CreateDeviceParams* params, TF_Status* status) {
  g_platform_fns.create_device(platform, params, status);
  if (TF_GetCode(status) == TF_OK && params->device->ordinal == 0) g_device = *params->device;
}

// ---- AddV2 ------------------------------------------------------------------------------------

std::string DimsText(const Dims& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

// NumPy broadcasting; false when the shapes are incompatible.
[[maybe_unused]] bool Broadcast(const Dims& x, const Dims& y, Dims* out) {
  const std::size_t rank = std::max(x.size(), y.size());
  out->assign(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t a = i < rank - x.size() ? 1 : x[i - (rank - x.size())];
    const int64_t b = i < rank - y.size() ? 1 : y[i - (rank - y.size())];
    if (a != b && a != 1 && b != 1) return false;
    (*out)[i] = a == 1 ? b : a;
  }
  return true;
}

// The element of `in` (shape `dims`) that output element `flat` (shape `out`) reads.
int64_t SourceIndex(const Dims& dims, const Dims& out, int64_t flat) {
  int64_t index = 0, stride = 1;
  for (std::size_t d = out.size(); d-- > 0;) {
    const int64_t coordinate = flat % out[d];
    flat /= out[d];
    const std::size_t offset = out.size() - dims.size();
    if (d < offset) continue;
    const int64_t size = dims[d - offset];
    if (size != 1) index += coordinate * stride;
    stride *= size;
  }
  return index;
}

// DEFECT_CACHE_BY_ADDRESS: what the kernel remembers of its last call.
struct AddWork;

struct AddCache {
  const void* x = nullptr;
  const void* y = nullptr;
  Dims z_dims;
  std::vector<char> z;
  std::shared_ptr<AddWork> shared_work;  // DEFECT_SHARED_SCRATCH: the one work of the kernel
};

#if defined(FLAKY_EVERY_OTHER_RUN)
// Whether this process is an even-numbered run: the first call counts the process in the file
// $FLAKY_COUNTER_FILE (one line, a decimal count), so runs alternate right, wrong, right, ...
bool FlakyRun() {
  static const bool wrong = [] {
    const char* path = std::getenv("FLAKY_COUNTER_FILE");
    if (path == nullptr) return false;
    long count = 0;
    if (FILE* in = std::fopen(path, "r")) {
      char line[32] = {};
      if (std::fgets(line, sizeof line, in) != nullptr) count = std::strtol(line, nullptr, 10);
      std::fclose(in);
    }
    ++count;
    if (FILE* out = std::fopen(path, "w")) {
      std::fprintf(out, "%ld\n", count);
      std::fclose(out);
    }
    return count % 2 == 0;
  }();
  return wrong;
}
#endif

struct AddWork {
  TF_DataType dtype;
  const void* x;
  const void* y;
  void* z;
  Dims x_dims, y_dims, z_dims;
  AddCache* cache = nullptr;  // DEFECT_CACHE_BY_ADDRESS only
};

#if defined(DEFECT_VALUES_VARY)
// The defect: every other computation in the process is off by one (a race in a vendor's
// reduction, say): identical runs give other values, whatever the order of the work.
bool OffThisTime() {
  static std::atomic<unsigned> calls{0};
  return (calls.fetch_add(1) & 1u) != 0;
}
#endif

template <typename T>
void AddTyped(const AddWork& w) {
  const auto* x = static_cast<const T*>(w.x);
  const auto* y = static_cast<const T*>(w.y);
  auto* z = static_cast<T*>(w.z);
  int64_t n = 1;
  for (int64_t d : w.z_dims) n *= d;
#if defined(DEFECT_VALUES_VARY)
  const T off = OffThisTime() ? T(1) : T(0);
#endif
  for (int64_t i = 0; i < n; ++i) {
    const T a = x[SourceIndex(w.x_dims, w.z_dims, i)];
    const T b = y[SourceIndex(w.y_dims, w.z_dims, i)];
#if defined(DEFECT_WRONG_ARITHMETIC)
    z[i] = static_cast<T>(a - b);  // the defect: subtracts
#elif defined(FLAKY_EVERY_OTHER_RUN)
    z[i] = static_cast<T>(FlakyRun() ? a - b : a + b);
#elif defined(DEFECT_VALUES_VARY)
    z[i] = static_cast<T>(a + b + off);
#elif defined(DEFECT_SIGNED_ZERO)
    z[i] = static_cast<T>(a + b) + T(0);  // the defect: -0 + -0 comes out as +0
#else
    z[i] = static_cast<T>(a + b);
#endif
  }
#if defined(DEFECT_WRITE_PAST_END)
  z[n] = z[n - 1];  // the defect: one element past the output's end
#endif
#if defined(DEFECT_WRONG_IN_TENSORFLOW)
  // The defect: inside the installed TensorFlow only, the first element is off by one.
  if (n > 0 && conformance::test_support::InsideInstalledTensorFlow()) z[0] = z[0] + T(1);
#endif
}

// Runs on the stream's worker (as a host callback): the simulated device executing the kernel.
void RunAdd(void* arg, TF_Status* status) {
  auto* work = static_cast<AddWork*>(arg);
#if defined(DEFECT_CACHE_BY_ADDRESS)
  // The defect: the same input addresses as last time are taken to hold the same values.
  AddCache& cache = *work->cache;
  if (cache.x == work->x && cache.y == work->y && cache.z_dims == work->z_dims) {
    std::memcpy(work->z, cache.z.data(), cache.z.size());
    delete work;
    return;
  }
#endif
  switch (work->dtype) {
    case TF_FLOAT: AddTyped<float>(*work); break;
    case TF_DOUBLE: AddTyped<double>(*work); break;
    case TF_INT32: AddTyped<int32_t>(*work); break;
    case TF_INT64: AddTyped<int64_t>(*work); break;
    default: TF_SetStatus(status, TF_INTERNAL, "AddV2: unexpected dtype"); break;
  }
#if defined(DEFECT_CACHE_BY_ADDRESS)
  const std::size_t bytes =
      static_cast<std::size_t>(NumElements(work->z_dims)) * TF_DataTypeSize(work->dtype);
  cache.x = work->x;
  cache.y = work->y;
  cache.z_dims = work->z_dims;
  cache.z.assign(bytes, 0);
  std::memcpy(cache.z.data(), work->z, bytes);
#endif
  delete work;
}

#if defined(DEFECT_SHARED_SCRATCH)
// The defect: the work's arguments live in the kernel object (one per AddV2 kernel), written by
// compute and read by the queued work, so a second compute of the same kernel running at once
// overwrites them before the first one's work reads them.
void RunSharedAdd(void* arg, TF_Status* status) {
  RunAdd(new AddWork(*static_cast<AddWork*>(arg)), status);
}
#endif

void Enqueue(AddWork* work, SP_Stream stream) {
#if defined(DEFECT_SHARED_SCRATCH)
  AddWork& shared = *work->cache->shared_work;
  shared = *work;
  delete work;
  g_se.host_callback(&g_device, stream, RunSharedAdd, &shared);
#elif defined(DEFECT_WORK_OFF_STREAM)
  // The defect: the work runs on a thread of the kernel's own, after compute returned.
  (void)stream;
#if defined(DEFECT_WORK_OFF_STREAM_STARVED)
  // Counted here, in call order: the second call's thread waits longer than any run lasts.
  static std::atomic<int> calls{0};
  const auto delay =
      calls.fetch_add(1) == 1 ? std::chrono::hours(1) : std::chrono::milliseconds(30);
#else
  const auto delay = std::chrono::milliseconds(30);
#endif
  std::thread([work, delay] {
    std::this_thread::sleep_for(delay);
    TF_Status* status = TF_NewStatus();
    RunAdd(work, status);
    TF_DeleteStatus(status);
  }).detach();
#elif defined(DEFECT_COMPUTE_AHEAD)
  // The defect: computes at once on the host thread, ahead of the copies queued on the stream.
  (void)stream;
  TF_Status* status = TF_NewStatus();
  RunAdd(work, status);
  TF_DeleteStatus(status);
#else
  if (!g_se.host_callback(&g_device, stream, RunAdd, work)) delete work;
#endif
}

[[maybe_unused]] void* CreateAdd(TF_OpKernelConstruction*) {
  auto* kernel = new AddCache;
  kernel->shared_work = std::make_shared<AddWork>();
  return kernel;
}
[[maybe_unused]] void DeleteAdd(void* kernel) { delete static_cast<AddCache*>(kernel); }

#if defined(DEFECT_CRASHES_IN_TENSORFLOW) || defined(DEFECT_HANGS_IN_TENSORFLOW)
// The defect: inside the installed TensorFlow, AddV2's compute segfaults or never returns (a
// vendor's kernel that only breaks on what real TensorFlow hands it). The mock core never gets
// here, so only the --tensorflow leg can catch it.
void DieInsideTensorFlow() {
  if (!conformance::test_support::InsideInstalledTensorFlow()) return;
#if defined(DEFECT_CRASHES_IN_TENSORFLOW)
  conformance::test_support::SegfaultHere();
#else
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#endif
}
#endif

[[maybe_unused]] void ComputeAdd(void* kernel, TF_OpKernelContext* ctx) {
#if defined(DEFECT_CRASHES_IN_TENSORFLOW) || defined(DEFECT_HANGS_IN_TENSORFLOW)
  DieInsideTensorFlow();
#endif
#if defined(SLOW_IN_TENSORFLOW)
  if (conformance::test_support::InsideInstalledTensorFlow()) {
    const char* delay = std::getenv("SLOW_KERNEL_MS");
    std::this_thread::sleep_for(
        std::chrono::milliseconds(delay != nullptr ? std::strtol(delay, nullptr, 10) : 4500));
  }
#endif
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = nullptr;
  TF_Tensor* y = nullptr;
  TF_Tensor* z = nullptr;
  Dims z_dims;
  SP_Stream stream = nullptr;
  TF_GetInput(ctx, 0, &x, status);
  if (TF_GetCode(status) != TF_OK) goto fail;
  TF_GetInput(ctx, 1, &y, status);
  if (TF_GetCode(status) != TF_OK) goto fail;
#if defined(DEFECT_NO_BROADCAST)
  // The defect: only equal shapes are accepted.
  if (DimsOf(x) != DimsOf(y)) {
#else
  if (!Broadcast(DimsOf(x), DimsOf(y), &z_dims)) {
#endif
    TF_SetStatus(
        status, TF_INVALID_ARGUMENT,
        ("Incompatible shapes: " + DimsText(DimsOf(x)) + " vs. " + DimsText(DimsOf(y))).c_str());
    goto fail;
  }
#if defined(DEFECT_NO_BROADCAST)
  z_dims = DimsOf(x);
#endif
#if defined(DEFECT_OUTPUT_NEVER_SET)
  goto done;  // the defect: returns OK without an output
#endif
#if defined(DEFECT_ABSURD_OUTPUT_SIZE)
  // The defect (Vulten's BiasAddGrad on a wrong rank): a scalar result's size is read from past
  // the end of its dims, here a 4 TiB float tensor. The allocation's status is checked.
  if (z_dims.empty()) z_dims = Dims{(int64_t{1} << 40) + 3};
#endif
#if defined(DEFECT_INPUT_AS_OUTPUT)
  // The defect: where the result has input 0's shape, it goes into input 0's buffer, set as the
  // output with TF_SetOutput, although the caller may still hold that tensor.
  if (DimsOf(x) == z_dims) {
    TF_SetOutput(ctx, 0, x, status);
    if (TF_GetCode(status) != TF_OK) goto fail;
    z = TF_GetMutableOutput(ctx, 0, status);
  } else {
    z = TF_AllocateOutput(ctx, 0, TF_TensorType(x), z_dims.data(), static_cast<int>(z_dims.size()),
                          0, status);
  }
#elif defined(LEGAL_FORWARDS_INPUT)
  {
    // Legal: an input's buffer is reused only where the core grants it.
    const int candidates[] = {0, 1};
    z = TF_ForwardInputOrAllocateOutput(ctx, candidates, 2, 0, z_dims.data(),
                                        static_cast<int>(z_dims.size()), nullptr, status);
  }
#else
z = TF_AllocateOutput(ctx, 0, TF_TensorType(x), z_dims.data(), static_cast<int>(z_dims.size()), 0,
                      status);
#endif
#if defined(DEFECT_IGNORED_ALLOCATION_FAILURE)
  // The defect: the allocation's status is not looked at; a NULL output is used anyway.
  TF_SetStatus(status, TF_OK, "");
#else
  if (TF_GetCode(status) != TF_OK) goto fail;
#endif
  stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) != TF_OK) goto fail;
  if (TF_TensorElementCount(z) > 0) {
    Enqueue(new AddWork{TF_TensorType(x), TF_TensorData(x), TF_TensorData(y), TF_TensorData(z),
                        DimsOf(x), DimsOf(y), z_dims, static_cast<AddCache*>(kernel)},
            stream);
  }
  goto done;
fail:
  TF_OpKernelContext_Failure(ctx, status);
done:
#if !defined(DEFECT_LEAKED_INPUT)
  TF_DeleteTensor(x);  // the defect keeps this handle (and with it the input's device memory)
#endif
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TF_DeleteStatus(status);
}

// ---- Sum, Softmax, MatMul (float; only in the variants about them) ---------------------------

using kernel_plugin::EnqueueWork;

#if defined(LEGAL_UNORDERED_SUM)
// Legal: adds in a new random order on every run, like a GPU reduction with atomics: the
// results differ in their last bits from run to run, always within the case's tolerance.
void* CreateSum(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  TF_Bool keep_dims = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "keep_dims", &keep_dims, status);
  TF_DeleteStatus(status);
  return new bool(keep_dims != 0);
}
void DeleteSum(void* kernel) { delete static_cast<bool*>(kernel); }

void ComputeSum(void* kernel, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims in_dims = DimsOf(call.inputs[0]);
  const auto* axes = static_cast<const int32_t*>(TF_TensorData(call.inputs[1]));  // host memory
  std::vector<bool> reduced(in_dims.size(), false);
  for (int64_t i = 0; i < TF_TensorElementCount(call.inputs[1]); ++i) {
    const int64_t axis = axes[i] < 0 ? axes[i] + static_cast<int64_t>(in_dims.size()) : axes[i];
    if (axis >= 0 && axis < static_cast<int64_t>(in_dims.size()))
      reduced[static_cast<std::size_t>(axis)] = true;
  }
  Dims out_dims;
  for (std::size_t d = 0; d < in_dims.size(); ++d) {
    if (!reduced[d])
      out_dims.push_back(in_dims[d]);
    else if (*static_cast<bool*>(kernel))
      out_dims.push_back(1);
  }
  if (!call.Output(out_dims)) return;
  EnqueueWork(call.stream,
              [in = call.In(0), out = call.Out(), in_dims, reduced, out_n = NumElements(out_dims)] {
                const int64_t n = NumElements(in_dims);
                std::vector<int64_t> order(static_cast<std::size_t>(n));
                std::iota(order.begin(), order.end(), 0);
                static std::mt19937_64 random{std::random_device{}()};
                std::shuffle(order.begin(), order.end(), random);
                std::vector<float> sums(static_cast<std::size_t>(out_n), 0.0f);
                for (int64_t flat : order) {
                  int64_t rest = flat, out_index = 0, out_stride = 1;
                  for (std::size_t d = in_dims.size(); d-- > 0;) {
                    const int64_t coordinate = rest % in_dims[d];
                    rest /= in_dims[d];
                    if (reduced[d]) continue;
                    out_index += coordinate * out_stride;
                    out_stride *= in_dims[d];
                  }
                  sums[static_cast<std::size_t>(out_index)] += in[flat];
                }
                std::copy(sums.begin(), sums.end(), out);
              });
}
#endif

#if defined(DEFECT_SOFTMAX_WITHOUT_MAX)
// The defect: exp(x) / sum(exp(x)) without subtracting the row's maximum first: exp overflows
// to infinity for logits above ~88 and the row becomes NaN.
void* CreateSoftmax(TF_OpKernelConstruction*) { return nullptr; }
void DeleteSoftmax(void*) {}

void ComputeSoftmax(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (!call.Output(dims) || dims.empty()) return;
  EnqueueWork(call.stream,
              [in = call.In(0), out = call.Out(), n = NumElements(dims), width = dims.back()] {
                for (int64_t row = 0; width > 0 && row < n / width; ++row) {
                  float sum = 0;
                  for (int64_t i = 0; i < width; ++i) sum += std::exp(in[row * width + i]);
                  for (int64_t i = 0; i < width; ++i)
                    out[row * width + i] = std::exp(in[row * width + i]) / sum;
                }
              });
}
#endif

#if defined(LEGAL_MATMUL_FLUSHES_DENORMALS)
// Legal: results below FLT_MIN are flushed to zero (a device running with FTZ on), as
// TensorFlow's own CPU kernels do (measured: tests/tensorflow_oracle, specs/scenarios/kernels.md).
void ComputeMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const MatMulTransposes t = *static_cast<MatMulTransposes*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  MatMulDims dims;
  if (!MatMulDimsOf(DimsOf(call.inputs[0]), DimsOf(call.inputs[1]), t, dims)) {
    call.Fail(TF_INVALID_ARGUMENT, "MatMul: the inner dimensions differ");
    return;
  }
  const int64_t m = dims.m, k = dims.k, n = dims.n;
  if (!call.Output({m, n})) return;
  EnqueueWork(call.stream, [pa = call.In(0), pb = call.In(1), out = call.Out(), t, m, k, n] {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          const float x = t.a ? pa[p * m + i] : pa[i * k + p];
          const float y = t.b ? pb[j * k + p] : pb[p * n + j];
          sum += x * y;
        }
        out[i * n + j] = std::fabs(sum) < FLT_MIN ? 0.0f : sum;
      }
    }
  });
}
#endif

// ---- MatMul in TF32 ---------------------------------------------------------------------------

#if defined(TF32_MATMUL)
// float rounded to TF32: the 13 low mantissa bits dropped, to nearest (ties away from zero),
// which is what a tensor core reads of a float32 operand.
float Tf32(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & 0xffffe000u;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

struct MatMulWork {
  const float* a;
  const float* b;
  float* c;
  int64_t m, k, n;
  MatMulTransposes attrs;
};

void RunMatMul(void* arg, TF_Status*) {
  auto* w = static_cast<MatMulWork*>(arg);
  for (int64_t i = 0; i < w->m; ++i) {
    for (int64_t j = 0; j < w->n; ++j) {
      float sum = 0;
      for (int64_t p = 0; p < w->k; ++p) {
        const float a = w->attrs.a ? w->a[p * w->m + i] : w->a[i * w->k + p];
        const float b = w->attrs.b ? w->b[j * w->k + p] : w->b[p * w->n + j];
        sum += Tf32(a) * Tf32(b);
      }
      w->c[i * w->n + j] = sum;
    }
  }
  delete w;
}

void ComputeMatMul(void* kernel, TF_OpKernelContext* ctx) {
  const MatMulTransposes attrs = *static_cast<MatMulTransposes*>(kernel);
  TF_Status* status = TF_NewStatus();
  TF_Tensor* a = nullptr;
  TF_Tensor* b = nullptr;
  TF_Tensor* c = nullptr;
  TF_GetInput(ctx, 0, &a, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 1, &b, status);
  if (TF_GetCode(status) == TF_OK && (TF_NumDims(a) != 2 || TF_NumDims(b) != 2)) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "MatMul: both operands must be matrices");
  }
  int64_t m = 0, k = 0, n = 0;
  if (TF_GetCode(status) == TF_OK) {
    m = TF_Dim(a, attrs.a ? 1 : 0);
    k = TF_Dim(a, attrs.a ? 0 : 1);
    n = TF_Dim(b, attrs.b ? 0 : 1);
    if (k != TF_Dim(b, attrs.b ? 1 : 0)) {
      TF_SetStatus(status, TF_INVALID_ARGUMENT, "MatMul: inner dimensions differ");
    }
  }
  if (TF_GetCode(status) == TF_OK) {
    const int64_t dims[2] = {m, n};
    c = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, 2, 0, status);
  }
  SP_Stream stream = nullptr;
  if (TF_GetCode(status) == TF_OK) stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) == TF_OK && m * n > 0) {
    auto* work = new MatMulWork{static_cast<const float*>(TF_TensorData(a)),
                                static_cast<const float*>(TF_TensorData(b)),
                                static_cast<float*>(TF_TensorData(c)),
                                m,
                                k,
                                n,
                                attrs};
    if (!g_se.host_callback(&g_device, stream, RunMatMul, work)) delete work;
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
  TF_DeleteTensor(c);
  TF_DeleteStatus(status);
}
#endif

}  // namespace

void kernel_plugin::EnqueueWork(SP_Stream stream, std::function<void()> work) {
  auto* queued = new std::function<void()>(std::move(work));
  auto run = [](void* arg, TF_Status*) {
    auto* fn = static_cast<std::function<void()>*>(arg);
    (*fn)();
    delete fn;
  };
  if (!g_se.host_callback(&g_device, stream, run, queued)) delete queued;
}

EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "kernel plugin")) return;
  g_platform_fns = *params->platform_fns;
  g_device_type = params->platform->type;
#if defined(DIRTY_DEVICE_MEMORY)
  params->platform->use_bfc_allocator = false;
#endif
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
  params->platform_fns->create_device = CreateDevice;
}

#if !defined(NO_KERNELS)
EXPORT void TF_InitKernel() {
  TF_Status* status = TF_NewStatus();
  for (TF_DataType dtype : {TF_FLOAT, TF_DOUBLE, TF_INT32, TF_INT64}) {
    TF_KernelBuilder* builder =
        TF_NewKernelBuilder("AddV2", g_device_type, CreateAdd, ComputeAdd, DeleteAdd);
    TF_KernelBuilder_TypeConstraint(builder, "T", dtype, status);
#if defined(LABEL_ONLY)
    // Legal, but TensorFlow runs a labelled kernel only for nodes that ask for the label.
    TF_KernelBuilder_Label(builder, "special");
#endif
#if defined(DEFECT_HOST_MEMORY_IN_TENSORFLOW)
    if (conformance::test_support::InsideInstalledTensorFlow()) {
      TF_KernelBuilder_HostMemory(builder, "no_such_argument");
    }
#endif
    TF_RegisterKernelBuilder("AddV2", builder, status);
  }
#if defined(LEGAL_UNORDERED_SUM)
  TF_KernelBuilder* sum =
      TF_NewKernelBuilder("Sum", g_device_type, CreateSum, ComputeSum, DeleteSum);
  TF_KernelBuilder_TypeConstraint(sum, "T", TF_FLOAT, status);
  TF_KernelBuilder_HostMemory(sum, "reduction_indices");
  TF_RegisterKernelBuilder("Sum", sum, status);
#endif
#if defined(DEFECT_SOFTMAX_WITHOUT_MAX)
  TF_KernelBuilder* softmax =
      TF_NewKernelBuilder("Softmax", g_device_type, CreateSoftmax, ComputeSoftmax, DeleteSoftmax);
  TF_KernelBuilder_TypeConstraint(softmax, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("Softmax", softmax, status);
#endif
#if defined(LEGAL_MATMUL_FLUSHES_DENORMALS) || defined(TF32_MATMUL)
  TF_KernelBuilder* matmul =
      TF_NewKernelBuilder("MatMul", g_device_type, kernel_plugin::CreateMatMulTransposes,
                          ComputeMatMul, kernel_plugin::DeleteMatMulTransposes);
  TF_KernelBuilder_TypeConstraint(matmul, "T", TF_FLOAT, status);
  TF_RegisterKernelBuilder("MatMul", matmul, status);
#endif
  kernel_plugin::RegisterEdgeValueKernels(g_device_type, status);
  kernel_plugin::RegisterInputClassKernels(g_device_type, status);
  kernel_plugin::RegisterRandomKernels(g_device_type, status);
  kernel_plugin::RegisterVariableKernels(g_device_type, status);
  kernel_plugin::RegisterStringKernels(g_device_type, status);
  kernel_plugin::RegisterComplexKernels(g_device_type, status);
  kernel_plugin::RegisterTypeListKernels(g_device_type, status);
  kernel_plugin::RegisterPhiloxKernels(g_device_type, status);
  kernel_plugin::RegisterQuantizedKernels(g_device_type, status);
  kernel_plugin::RegisterStandInKernels(g_device_type, status);
  kernel_plugin::RegisterFusedMatMulKernels(g_device_type, status);
  kernel_plugin::RegisterDtypeCellKernels(g_device_type, status);
  kernel_plugin::RegisterMklLayoutKernels(g_device_type, status);
  kernel_plugin::RegisterSourceKernels(g_device_type, status);
  kernel_plugin::RegisterLegacyRandomKernels(g_device_type, status);
  kernel_plugin::RegisterPluginOpKernels(g_device_type, status);
  TF_DeleteStatus(status);
}
#endif
