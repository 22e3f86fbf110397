// The reference plugin with one kernel replaced by a defective one that only the models tier
// catches: its StreamExecutor and every kernel are the reference plugin's (SE_InitPlugin and
// TF_InitKernel forwarded), and each -DDEFECT_<NAME> registers one float kernel of its own
// with a higher priority, so TensorFlow (and the harness) picks it over the reference's. The
// kernel tier passes every one of them but the private copy: the defect needs a chain of
// kernels on the device.
//   DEFECT_CACHE_BY_BUFFERS  MatMul skips its work when called with the same input and output
//                            addresses as last time ("the result is already there"): the
//                            kernel tier's reused-buffer run gets a fresh output address, a
//                            model's next step gets the same buffers back from the allocator.
//   DEFECT_READ_AHEAD        Relu reads its input on the host when compute runs and queues only
//                            the write of its result; the device's copies are synchronous, so
//                            an input copied from the host is always there in time (the kernel
//                            tier's late_inputs passes), an input a previous kernel is still
//                            computing on the stream is not.
//   DEFECT_FORWARD_IN_PLACE  Relu computes in place and hands its input back as its output
//                            (TF_SetOutput) without asking the core whether the buffer is
//                            shared: a corrupted input for the other consumer when it is (a
//                            residual connection). The kernel tier's inputs_untouched catches
//                            it too: the core never granted that buffer.
//   DEFECT_UPDATE_PRIVATE_COPY ResourceApplyGradientDescent takes the variable's tensor as
//                            TensorFlow hands it out (locks, TF_GetInputTensorFromVariable)
//                            but computes var - alpha * delta into a staging copy of its own
//                            that never reaches the variable (float only; it validates alpha
//                            and the shapes as TensorFlow does): the op has no output, so only
//                            reading the variable back shows it, as the kernel tier's variable
//                            cases and the model after a training step both do.
//   DEFECT_UPDATE_ON_SYNC    ResourceApplyGradientDescent computes var - alpha * delta on the
//                            stream, right, but into a staging buffer of its own, written back
//                            into the variable only when the host next synchronises with the
//                            device (block_host_until_done, synchronize_all_activity, a copy
//                            to the host): a write-back buffer flushed at host sync. Whoever
//                            synchronises before reading the variable (the kernel tier, a model
//                            step read back) sees the update; a kernel queued after it on the
//                            stream (the next step's forward pass in one graph, as Keras's
//                            steps_per_execution runs it) reads the old value. Each wrapper
//                            waits for the stream first (the reference's
//                            block_host_until_done), so every staged value is computed before
//                            it is written back: deterministic, no thread of its own. A freed
//                            variable drops its pending write-backs. It validates as TensorFlow
//                            does, as the private copy does.
// -DLEGAL_FORWARDING is a legal pattern every model must pass: its Relu asks the core for its
// input's buffer (TF_ForwardInputOrAllocateOutput) and computes in place when it gets it.
// -DRELU_CRASHES_IN_TENSORFLOW / -DRELU_HANGS_IN_TENSORFLOW (with -DLEGAL_FORWARDING): that legal
// Relu, except that inside the installed TensorFlow its compute segfaults / never returns
// (tests/installed_deaths: a death in a model graph, Relu being in the built-in models and not
// among the session's first ops). Without a switch it is the correct plugin: the reference plugin
// by another name.
#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "../support/inside_tensorflow.h"
#include "../support/reference_init.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "../support/core_function.h"

#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {

SP_PlatformFns g_platform_fns;  // the reference's
SP_StreamExecutor g_se;         // the reference's table: host_callback queues kernel work
SP_Device g_device;
const char* g_device_type = nullptr;

#if defined(DEFECT_READ_AHEAD)
// A device whose host-to-device copies wait for the stream and then copy at once (legal: the
// copy still lands after everything queued before it).
decltype(SP_StreamExecutor::memcpy_htod) g_reference_memcpy_htod = nullptr;
decltype(SP_StreamExecutor::block_host_until_done) g_reference_block_host_until_done = nullptr;

void SynchronousMemcpyHtoD(const SP_Device* device, SP_Stream stream, SP_DeviceMemoryBase* dst,
                           const void* src, uint64_t size, TF_Status* status) {
  g_reference_block_host_until_done(device, stream, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_reference_memcpy_htod(device, stream, dst, src, size, status);
  if (TF_GetCode(status) != TF_OK) return;
  g_reference_block_host_until_done(device, stream, status);
}
#endif

#if defined(DEFECT_UPDATE_ON_SYNC)
// The staged updates not yet written back: each lands in its variable's buffer at the host's
// next synchronisation with the device, once the stream has computed it.
struct WriteBack {
  std::shared_ptr<std::vector<float>> staged;
  float* variable = nullptr;
};
std::mutex g_write_backs_mutex;
std::vector<WriteBack> g_write_backs;

SP_StreamExecutor g_reference;  // the reference's functions the wrappers below call

void StageWriteBack(WriteBack write_back) {
  std::lock_guard<std::mutex> lock(g_write_backs_mutex);
  g_write_backs.push_back(std::move(write_back));
}

// The defect's flush, once the stream has finished (so every staged value is computed).
void ApplyWriteBacks() {
  std::vector<WriteBack> pending;
  {
    std::lock_guard<std::mutex> lock(g_write_backs_mutex);
    pending.swap(g_write_backs);
  }
  for (const WriteBack& w : pending)
    std::memcpy(w.variable, w.staged->data(), w.staged->size() * sizeof(float));
}

void BlockHostUntilDoneThenWriteBack(const SP_Device* device, SP_Stream stream, TF_Status* status) {
  g_reference.block_host_until_done(device, stream, status);
  if (TF_GetCode(status) == TF_OK) ApplyWriteBacks();
}

void SynchronizeAllActivityThenWriteBack(const SP_Device* device, TF_Status* status) {
  g_reference.synchronize_all_activity(device, status);
  if (TF_GetCode(status) == TF_OK) ApplyWriteBacks();
}

void MemcpyDtoHAfterWriteBack(const SP_Device* device, SP_Stream stream, void* host_dst,
                              const SP_DeviceMemoryBase* device_src, uint64_t size,
                              TF_Status* status) {
  BlockHostUntilDoneThenWriteBack(device, stream, status);
  if (TF_GetCode(status) == TF_OK)
    g_reference.memcpy_dtoh(device, stream, host_dst, device_src, size, status);
}

void SyncMemcpyDtoHAfterWriteBack(const SP_Device* device, void* host_dst,
                                  const SP_DeviceMemoryBase* device_src, uint64_t size,
                                  TF_Status* status) {
  SynchronizeAllActivityThenWriteBack(device, status);
  if (TF_GetCode(status) == TF_OK)
    g_reference.sync_memcpy_dtoh(device, host_dst, device_src, size, status);
}

// Block sizes as allocate gave them: TensorFlow's deallocate passes the address alone.
std::map<const void*, uint64_t> g_block_sizes;  // guarded by g_write_backs_mutex

void AllocateRecordingSize(const SP_Device* device, uint64_t size, int64_t memory_space,
                           SP_DeviceMemoryBase* memory) {
  g_reference.allocate(device, size, memory_space, memory);
  if (memory->opaque == nullptr) return;
  std::lock_guard<std::mutex> lock(g_write_backs_mutex);
  g_block_sizes[memory->opaque] = size;
}

// A freed variable takes its pending write-backs with it (never a write into freed memory).
void DeallocateDroppingWriteBacks(const SP_Device* device, SP_DeviceMemoryBase* memory) {
  if (memory != nullptr && memory->opaque != nullptr) {
    std::lock_guard<std::mutex> lock(g_write_backs_mutex);
    const auto* begin = static_cast<const char*>(memory->opaque);
    const auto* end = begin + g_block_sizes[memory->opaque];
    g_block_sizes.erase(memory->opaque);
    std::erase_if(g_write_backs, [&](const WriteBack& w) {
      const auto* at = reinterpret_cast<const char*>(w.variable);
      return at >= begin && at < end;
    });
  }
  g_reference.deallocate(device, memory);
}
#endif

void CreateStreamExecutor(const SP_Platform* platform, SE_CreateStreamExecutorParams* params,
                          TF_Status* status) {
  g_platform_fns.create_stream_executor(platform, params, status);
#if defined(DEFECT_READ_AHEAD)
  g_reference_memcpy_htod = params->stream_executor->memcpy_htod;
  g_reference_block_host_until_done = params->stream_executor->block_host_until_done;
  params->stream_executor->memcpy_htod = SynchronousMemcpyHtoD;
#endif
#if defined(DEFECT_UPDATE_ON_SYNC)
  SP_StreamExecutor* se = params->stream_executor;
  g_reference = *se;
  se->block_host_until_done = BlockHostUntilDoneThenWriteBack;
  se->synchronize_all_activity = SynchronizeAllActivityThenWriteBack;
  se->memcpy_dtoh = MemcpyDtoHAfterWriteBack;
  se->sync_memcpy_dtoh = SyncMemcpyDtoHAfterWriteBack;
  se->allocate = AllocateRecordingSize;
  se->deallocate = DeallocateDroppingWriteBacks;
#endif
  if (TF_GetCode(status) == TF_OK) g_se = *params->stream_executor;
}

void CreateDevice(const SP_Platform* platform, SE_CreateDeviceParams* params, TF_Status* status) {
  g_platform_fns.create_device(platform, params, status);
  if (TF_GetCode(status) == TF_OK && params->device->ordinal == 0) g_device = *params->device;
}

using Dims = std::vector<int64_t>;

[[maybe_unused]] Dims DimsOf(const TF_Tensor* t) {
  Dims dims(static_cast<std::size_t>(TF_NumDims(t)));
  for (std::size_t i = 0; i < dims.size(); ++i) dims[i] = TF_Dim(t, static_cast<int>(i));
  return dims;
}

// Queues `work` on the stream (the simulated device runs host callbacks in order).
[[maybe_unused]] void EnqueueWork(SP_Stream stream, std::function<void()> work) {
  auto* queued = new std::function<void()>(std::move(work));
  auto run = [](void* arg, TF_Status*) {
    auto* fn = static_cast<std::function<void()>*>(arg);
    (*fn)();
    delete fn;
  };
  if (!g_se.host_callback(&g_device, stream, run, queued)) delete queued;
}

[[maybe_unused]] float ReluOf(float x) { return x > 0 || x != x ? x : 0.0f; }

#if defined(DEFECT_CACHE_BY_BUFFERS)
struct MatMulKernel {
  bool transpose_a = false, transpose_b = false;
  // The addresses of the last call: the defect takes the same ones to mean the same result.
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
};

void* CreateMatMul(TF_OpKernelConstruction* construction) {
  auto* kernel = new MatMulKernel;
  TF_Status* status = TF_NewStatus();
  TF_Bool value = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_a", &value, status);
  kernel->transpose_a = TF_GetCode(status) == TF_OK && value;
  TF_OpKernelConstruction_GetAttrBool(construction, "transpose_b", &value, status);
  kernel->transpose_b = TF_GetCode(status) == TF_OK && value;
  TF_DeleteStatus(status);
  return kernel;
}
void DeleteMatMul(void* kernel) { delete static_cast<MatMulKernel*>(kernel); }

void ComputeMatMul(void* opaque, TF_OpKernelContext* ctx) {
  auto& kernel = *static_cast<MatMulKernel*>(opaque);
  TF_Status* status = TF_NewStatus();
  TF_Tensor* a = nullptr;
  TF_Tensor* b = nullptr;
  TF_Tensor* c = nullptr;
  TF_GetInput(ctx, 0, &a, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 1, &b, status);
  if (TF_GetCode(status) == TF_OK) {
    const Dims ad = DimsOf(a), bd = DimsOf(b);
    const int64_t m = kernel.transpose_a ? ad[1] : ad[0], k = kernel.transpose_a ? ad[0] : ad[1];
    const int64_t n = kernel.transpose_b ? bd[0] : bd[1];
    const int64_t dims[2] = {m, n};
    c = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, 2, static_cast<size_t>(m * n) * sizeof(float),
                          status);
    SP_Stream stream = TF_GetCode(status) == TF_OK ? TF_GetStream(ctx, status) : nullptr;
    if (TF_GetCode(status) == TF_OK && m * n > 0) {
      const auto* x = static_cast<const float*>(TF_TensorData(a));
      const auto* y = static_cast<const float*>(TF_TensorData(b));
      auto* z = static_cast<float*>(TF_TensorData(c));
      const bool same_buffers = kernel.a == x && kernel.b == y && kernel.c == z;
      kernel.a = x;
      kernel.b = y;
      kernel.c = z;
      if (!same_buffers) {  // the defect: same buffers, so the result is taken to be there
        const bool ta = kernel.transpose_a, tb = kernel.transpose_b;
        EnqueueWork(stream, [=] {
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
              double sum = 0;
              for (int64_t p = 0; p < k; ++p) {
                const float u = ta ? x[p * m + i] : x[i * k + p];
                const float v = tb ? y[j * k + p] : y[p * n + j];
                sum += static_cast<double>(u) * v;
              }
              z[i * n + j] = static_cast<float>(sum);
            }
          }
        });
      }
    }
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
  TF_DeleteTensor(c);
  TF_DeleteStatus(status);
}
#endif

#if defined(RELU_CRASHES_IN_TENSORFLOW) || defined(RELU_HANGS_IN_TENSORFLOW)
// Only the installed TensorFlow gets here dead: plugin_conformance's own children (the emulated
// models tier) compute the right values.
void DieInsideTensorFlow() {
  if (!conformance::test_support::InsideInstalledTensorFlow()) return;
#if defined(RELU_CRASHES_IN_TENSORFLOW)
  conformance::test_support::SegfaultHere();
#else
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#endif
}
#endif

#if defined(DEFECT_READ_AHEAD) || defined(DEFECT_FORWARD_IN_PLACE) || defined(LEGAL_FORWARDING)
void* CreateRelu(TF_OpKernelConstruction*) { return nullptr; }
void DeleteRelu(void*) {}

void ComputeRelu(void*, TF_OpKernelContext* ctx) {
#if defined(RELU_CRASHES_IN_TENSORFLOW) || defined(RELU_HANGS_IN_TENSORFLOW)
  DieInsideTensorFlow();
#endif
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = nullptr;
  TF_Tensor* y = nullptr;
  TF_GetInput(ctx, 0, &x, status);
  SP_Stream stream = TF_GetCode(status) == TF_OK ? TF_GetStream(ctx, status) : nullptr;
  if (TF_GetCode(status) == TF_OK) {
    const int64_t n = TF_TensorElementCount(x);
#if defined(DEFECT_FORWARD_IN_PLACE)
    // The defect: the input's buffer is written and handed back without asking the core.
    auto* data = static_cast<float*>(TF_TensorData(x));
    if (n > 0) {
      EnqueueWork(stream, [data, n] {
        for (int64_t i = 0; i < n; ++i) data[i] = ReluOf(data[i]);
      });
    }
    TF_SetOutput(ctx, 0, x, status);
#elif defined(LEGAL_FORWARDING)
    // The core forwards only an unshared buffer, and the TF_GetInput handle is a share of its
    // own (as in TensorFlow): read the shape and address, let the handle go, then ask.
    const Dims dims = DimsOf(x);
    const auto* in = static_cast<const float*>(TF_TensorData(x));  // the context keeps it alive
    TF_DeleteTensor(x);
    x = nullptr;
    int candidate = 0, forwarded = -1;
    y = TF_ForwardInputOrAllocateOutput(ctx, &candidate, 1, 0, dims.data(),
                                        static_cast<int>(dims.size()), &forwarded, status);
    if (TF_GetCode(status) == TF_OK && n > 0) {
      auto* out = static_cast<float*>(TF_TensorData(y));
      EnqueueWork(stream, [in, out, n] {
        for (int64_t i = 0; i < n; ++i) out[i] = ReluOf(in[i]);
      });
    }
#else
    const Dims dims = DimsOf(x);
    y = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims.data(), static_cast<int>(dims.size()),
                          static_cast<size_t>(n) * sizeof(float), status);
    if (TF_GetCode(status) == TF_OK && n > 0) {
      // The defect: the input is read now, on the host, not in order on the stream.
      const auto* in = static_cast<const float*>(TF_TensorData(x));
      std::vector<float> result(in, in + n);
      for (float& v : result) v = ReluOf(v);
      auto* out = static_cast<float*>(TF_TensorData(y));
      EnqueueWork(stream, [out, result = std::move(result)] {
        std::memcpy(out, result.data(), result.size() * sizeof(float));
      });
    }
#endif
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteStatus(status);
}
#endif

#if defined(DEFECT_UPDATE_PRIVATE_COPY) || defined(DEFECT_UPDATE_ON_SYNC)
// The variable functions, looked up at run time as the reference plugin does (a core that
// lacks them must still load the plugin): in the library that gave us TF_NewKernelBuilder.
struct VariableFunctions {
  decltype(&TF_MaybeLockVariableInputMutexesInOrder) lock = nullptr;
  decltype(&TF_GetInputTensorFromVariable) get = nullptr;
  decltype(&TF_ReleaseVariableInputLockHolder) release = nullptr;
  bool complete() const { return lock != nullptr && get != nullptr && release != nullptr; }
};

const VariableFunctions& Variables() {
  static const VariableFunctions functions = [] {
    VariableFunctions found;
    const auto find = conformance::test_support::FindCoreFunction;
    found.lock =
        reinterpret_cast<decltype(found.lock)>(find("TF_MaybeLockVariableInputMutexesInOrder"));
    found.get = reinterpret_cast<decltype(found.get)>(find("TF_GetInputTensorFromVariable"));
    found.release =
        reinterpret_cast<decltype(found.release)>(find("TF_ReleaseVariableInputLockHolder"));
    return found;
  }();
  return functions;
}

// copyFunc: TensorFlow's copy of a shared variable buffer, in stream order.
void CopyVariable(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest) {
  TF_Status* status = TF_NewStatus();
  SP_Stream stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) == TF_OK) {
    EnqueueWork(stream, [from = TF_TensorData(source), to = TF_TensorData(dest),
                         bytes = TF_TensorByteSize(source)] { std::memcpy(to, from, bytes); });
  }
  TF_DeleteStatus(status);
}

void* CreateApplyGradientDescent(TF_OpKernelConstruction*) { return nullptr; }
void DeleteApplyGradientDescent(void*) {}

void ComputeApplyGradientDescent(void*, TF_OpKernelContext* ctx) {
  const VariableFunctions& api = Variables();
  TF_Status* status = TF_NewStatus();
  const int var_input[] = {0};
  TF_VariableInputLockHolder* holder = nullptr;
  api.lock(ctx, false, false, var_input, 1, &CopyVariable, &holder, status);
  TF_Tensor* var = nullptr;
  TF_Tensor* alpha = nullptr;
  TF_Tensor* delta = nullptr;
  if (TF_GetCode(status) == TF_OK) api.get(ctx, 0, true, false, false, &CopyVariable, &var, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 1, &alpha, status);
  if (TF_GetCode(status) == TF_OK) TF_GetInput(ctx, 2, &delta, status);
  // Validated as TensorFlow does (the one defect is the update below).
  if (TF_GetCode(status) == TF_OK && var != nullptr && TF_NumDims(alpha) != 0)
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "alpha is not a scalar");
  if (TF_GetCode(status) == TF_OK && var != nullptr) {
    bool same = TF_NumDims(var) == TF_NumDims(delta);
    for (int i = 0; same && i < TF_NumDims(var); ++i) same = TF_Dim(var, i) == TF_Dim(delta, i);
    if (!same)
      TF_SetStatus(status, TF_INVALID_ARGUMENT, "var and delta do not have the same shape");
  }
  SP_Stream stream = TF_GetCode(status) == TF_OK ? TF_GetStream(ctx, status) : nullptr;
  if (TF_GetCode(status) == TF_OK && var != nullptr) {
    const int64_t n = TF_TensorElementCount(var);
    const auto* v = static_cast<const float*>(TF_TensorData(var));
    const auto* a = static_cast<const float*>(TF_TensorData(alpha));
    const auto* d = static_cast<const float*>(TF_TensorData(delta));
#if defined(DEFECT_UPDATE_ON_SYNC)
    // The defect: the update is computed in stream order into a staging buffer, which reaches
    // the variable only at the host's next synchronisation.
    auto staged = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n));
    if (n > 0) StageWriteBack({staged, static_cast<float*>(TF_TensorData(var))});
    EnqueueWork(stream, [v, a, d, n, staged] {
      for (int64_t i = 0; i < n; ++i) (*staged)[static_cast<std::size_t>(i)] = v[i] - *a * d[i];
    });
#else
    EnqueueWork(stream, [v, a, d, n] {
      // The defect: the update lands in a staging copy that is never written back.
      std::vector<float> staged(v, v + n);
      for (int64_t i = 0; i < n; ++i) staged[static_cast<std::size_t>(i)] -= *a * d[i];
    });
#endif
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  if (holder != nullptr) api.release(holder);
  TF_DeleteTensor(var);
  TF_DeleteTensor(alpha);
  TF_DeleteTensor(delta);
  TF_DeleteStatus(status);
}
#endif

}  // namespace

EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  if (!conformance::test_support::InitAsReferencePlugin(params, status, "model plugin")) return;
  g_platform_fns = *params->platform_fns;
  g_device_type = params->platform->type;
  params->platform_fns->create_stream_executor = CreateStreamExecutor;
  params->platform_fns->create_device = CreateDevice;
}

EXPORT void TF_InitKernel() {
  // The reference plugin's kernels first (the same library SE_InitPlugin opened).
  void* reference = dlopen(REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  if (reference == nullptr) return;
  if (auto init = reinterpret_cast<void (*)()>(dlsym(reference, "TF_InitKernel"))) init();
  [[maybe_unused]] TF_Status* status = TF_NewStatus();
  // Registers the defect's kernel for float above the reference's (priority 1).
  [[maybe_unused]] auto replace = [&](const char* op, void* (*create)(TF_OpKernelConstruction*),
                                      void (*compute)(void*, TF_OpKernelContext*),
                                      void (*destroy)(void*)) {
    TF_KernelBuilder* builder = TF_NewKernelBuilder(op, g_device_type, create, compute, destroy);
    TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
    TF_KernelBuilder_Priority(builder, 1);
    TF_RegisterKernelBuilder(op, builder, status);
  };
#if defined(DEFECT_CACHE_BY_BUFFERS)
  replace("MatMul", CreateMatMul, ComputeMatMul, DeleteMatMul);
#endif
#if defined(DEFECT_READ_AHEAD) || defined(DEFECT_FORWARD_IN_PLACE) || defined(LEGAL_FORWARDING)
  replace("Relu", CreateRelu, ComputeRelu, DeleteRelu);
#endif
#if defined(DEFECT_UPDATE_PRIVATE_COPY) || defined(DEFECT_UPDATE_ON_SYNC)
  if (Variables().complete()) {
    TF_KernelBuilder* builder = TF_NewKernelBuilder(
        "ResourceApplyGradientDescent", g_device_type, CreateApplyGradientDescent,
        ComputeApplyGradientDescent, DeleteApplyGradientDescent);
    TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
    TF_KernelBuilder_HostMemory(builder, "var");
    TF_KernelBuilder_Priority(builder, 1);
    TF_RegisterKernelBuilder("ResourceApplyGradientDescent", builder, status);
  }
#endif
  TF_DeleteStatus(status);
}
