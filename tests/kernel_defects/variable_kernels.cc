// A kernel that updates resource variables, judged from the recorded oracle
// (specs/ops/families/variable_updates.yaml): the case creates the variables on the device, the
// kernel updates them in place, and the variables' values after it are the outputs.
//   -DMOMENTUM_KERNEL                    ResourceApplyMomentum (float): accum = accum * momentum +
//                                        grad, then var -= lr * accum, or with use_nesterov
//                                        var -= lr * grad + lr * momentum * accum
//   -DDEFECT_MOMENTUM_IGNORES_NESTEROV   the same, always the plain update: right for every case
//                                        but the one with use_nesterov=true
//   -DREF_INPUTS                         either as ApplyMomentum instead: var and accum are
//                                        reference inputs (TensorFlow 1's variables), updated in
//                                        place, var forwarded to the `out` reference output
// The variable functions are looked up at run time (a core that lacks them, TensorFlow 2.21,
// must still load the plugin): tests/support/core_function.h.
#include <cstdint>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "../support/core_function.h"

namespace kernel_plugin {
namespace {

#if defined(MOMENTUM_KERNEL) || defined(DEFECT_MOMENTUM_IGNORES_NESTEROV)
struct VariableFunctions {
  decltype(&TF_MaybeLockVariableInputMutexesInOrder) lock = nullptr;
  decltype(&TF_GetInputTensorFromVariable) get = nullptr;
  decltype(&TF_ReleaseVariableInputLockHolder) release = nullptr;
  decltype(&TF_OpKernelContext_ForwardRefInputToRefOutput) forward_ref = nullptr;
  bool complete() const {
    return lock != nullptr && get != nullptr && release != nullptr && forward_ref != nullptr;
  }
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
    found.forward_ref = reinterpret_cast<decltype(found.forward_ref)>(
        find("TF_OpKernelContext_ForwardRefInputToRefOutput"));
    return found;
  }();
  return functions;
}

// copyFunc: TensorFlow's copy of a variable buffer a reader still shares, in stream order.
void CopyVariable(TF_OpKernelContext* ctx, TF_Tensor* source, TF_Tensor* dest) {
  TF_Status* status = TF_NewStatus();
  SP_Stream stream = TF_GetStream(ctx, status);
  if (TF_GetCode(status) == TF_OK) {
    EnqueueWork(stream,
                [from = static_cast<const char*>(TF_TensorData(source)),
                 to = static_cast<char*>(TF_TensorData(dest)), bytes = TF_TensorByteSize(source)] {
                  for (std::size_t i = 0; i < bytes; ++i) to[i] = from[i];
                });
  }
  TF_DeleteStatus(status);
}

struct MomentumKernel {
  TF_Bool use_locking = 0;
  TF_Bool use_nesterov = 0;
};

void* CreateMomentum(TF_OpKernelConstruction* construction) {
  auto* kernel = new MomentumKernel;
  TF_Status* status = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrBool(construction, "use_locking", &kernel->use_locking, status);
  TF_OpKernelConstruction_GetAttrBool(construction, "use_nesterov", &kernel->use_nesterov, status);
  TF_DeleteStatus(status);
  return kernel;
}
void DeleteMomentum(void* kernel) { delete static_cast<MomentumKernel*>(kernel); }

bool SameDims(const TF_Tensor* a, const TF_Tensor* b) { return DimsOf(a) == DimsOf(b); }

// Whether the step is Nesterov's: the attr, which the defect reads and never uses.
bool Nesterov(const MomentumKernel& attrs) {
#if defined(DEFECT_MOMENTUM_IGNORES_NESTEROV)
  (void)attrs;
  return false;
#else
  return attrs.use_nesterov != 0;
#endif
}

// Inputs: var and accum (resource handles), lr, grad, momentum.
void ComputeMomentum(void* kernel, TF_OpKernelContext* ctx) {
  const auto& attrs = *static_cast<MomentumKernel*>(kernel);
  const VariableFunctions& api = Variables();
  KernelCall call(ctx);
  const int variables[] = {0, 1};
  TF_VariableInputLockHolder* holder = nullptr;
  api.lock(ctx, attrs.use_locking != 0, /*sparse=*/false, variables, 2, &CopyVariable, &holder,
           call.status);
  if (TF_GetCode(call.status) != TF_OK) return;
  TF_Tensor* var = nullptr;
  TF_Tensor* accum = nullptr;
  api.get(ctx, 0, true, false, false, &CopyVariable, &var, call.status);
  if (TF_GetCode(call.status) == TF_OK)
    api.get(ctx, 1, true, false, false, &CopyVariable, &accum, call.status);
  // TensorFlow reports a variable it cannot find on the context, with no tensor.
  if (TF_GetCode(call.status) == TF_OK && (var == nullptr || accum == nullptr))
    call.Fail(TF_NOT_FOUND, "a variable input holds no tensor");
  TF_Tensor* lr = nullptr;
  TF_Tensor* grad = nullptr;
  TF_Tensor* momentum = nullptr;
  if (TF_GetCode(call.status) == TF_OK) TF_GetInput(ctx, 2, &lr, call.status);
  if (TF_GetCode(call.status) == TF_OK) TF_GetInput(ctx, 3, &grad, call.status);
  if (TF_GetCode(call.status) == TF_OK) TF_GetInput(ctx, 4, &momentum, call.status);
  // Validated as TensorFlow does (the one defect is the update below).
  if (TF_GetCode(call.status) == TF_OK && (TF_NumDims(lr) != 0 || TF_NumDims(momentum) != 0 ||
                                           !SameDims(var, accum) || !SameDims(var, grad)))
    call.Fail(TF_INVALID_ARGUMENT, "lr and momentum are scalars; var, accum and grad one shape");
  SP_Stream stream = TF_GetCode(call.status) == TF_OK ? TF_GetStream(ctx, call.status) : nullptr;
  if (TF_GetCode(call.status) == TF_OK) {
    const bool nesterov = Nesterov(attrs);
    EnqueueWork(stream, [v = static_cast<float*>(TF_TensorData(var)),
                         a = static_cast<float*>(TF_TensorData(accum)),
                         l = *static_cast<const float*>(TF_TensorData(lr)),
                         g = static_cast<const float*>(TF_TensorData(grad)),
                         m = *static_cast<const float*>(TF_TensorData(momentum)),
                         n = TF_TensorElementCount(var), nesterov] {
      for (int64_t i = 0; i < n; ++i) {
        a[i] = a[i] * m + g[i];
        v[i] -= nesterov ? g[i] * l + a[i] * m * l : l * a[i];
      }
    });
  }
#if defined(REF_INPUTS)
  // ApplyMomentum's `out` is var itself, as TensorFlow's kernel forwards it.
  if (TF_GetCode(call.status) == TF_OK) api.forward_ref(ctx, 0, 0);
#endif
  for (TF_Tensor* t : {var, accum, lr, grad, momentum}) TF_DeleteTensor(t);
  api.release(holder);
}
#endif

}  // namespace

void RegisterVariableKernels([[maybe_unused]] const char* device_type,
                             [[maybe_unused]] TF_Status* status) {
#if defined(MOMENTUM_KERNEL) || defined(DEFECT_MOMENTUM_IGNORES_NESTEROV)
  if (!Variables().complete()) return;  // TensorFlow 2.21: no variable functions offered
#if defined(REF_INPUTS)
  const char* op = "ApplyMomentum";  // var and accum in device memory, as the reference
#else
  const char* op = "ResourceApplyMomentum";
#endif
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder(op, device_type, CreateMomentum, ComputeMomentum, DeleteMomentum);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_FLOAT, status);
#if !defined(REF_INPUTS)
  TF_KernelBuilder_HostMemory(builder, "var");  // the resource handles
  TF_KernelBuilder_HostMemory(builder, "accum");
#endif
  TF_RegisterKernelBuilder(op, builder, status);
#endif
}

}  // namespace kernel_plugin
