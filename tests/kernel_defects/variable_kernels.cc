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
//   -DSCATTER_ADD_KERNEL                 ScatterAdd (float, int32 indices) on a reference: each
//                                        update added to its row of ref, in turn
//   -DDEFECT_SCATTER_ADD_LAST_WINS       each row set to its value before the call plus one
//                                        update: where indices repeat, the last update of the
//                                        row replaces the others (right where they do not)
// The variable functions are looked up at run time (a core that lacks them, TensorFlow 2.21,
// must still load the plugin): variable_functions.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "variable_functions.h"

namespace kernel_plugin {
namespace {

#if defined(MOMENTUM_KERNEL) || defined(DEFECT_MOMENTUM_IGNORES_NESTEROV)
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

#if defined(SCATTER_ADD_KERNEL) || defined(DEFECT_SCATTER_ADD_LAST_WINS)
void* CreateScatterAdd(TF_OpKernelConstruction* /*construction*/) { return nullptr; }
void DeleteScatterAdd(void* /*kernel*/) {}

// Inputs: ref (a reference, updated in place), indices (int32, host memory), updates.
void ComputeScatterAdd(void* /*kernel*/, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  TF_VariableInputLockHolder* holder = nullptr;
  TF_Tensor* ref = LockedVariable(ctx, 0, &holder, call.status);
  TF_Tensor* indices = nullptr;
  TF_Tensor* updates = nullptr;
  if (TF_GetCode(call.status) == TF_OK) TF_GetInput(ctx, 1, &indices, call.status);
  if (TF_GetCode(call.status) == TF_OK) TF_GetInput(ctx, 2, &updates, call.status);
  int64_t rows = 0;
  int64_t row_size = 0;
  if (TF_GetCode(call.status) == TF_OK) {
    const Dims dims = DimsOf(ref);
    rows = dims.empty() ? 0 : dims[0];
    row_size = dims.empty() ? 0 : NumElements(Dims(dims.begin() + 1, dims.end()));
    const int64_t count = TF_TensorElementCount(indices);
    const auto* index = static_cast<const int32_t*>(TF_TensorData(indices));
    for (int64_t i = 0; i < count; ++i) {
      if (index[i] < 0 || index[i] >= rows) call.Fail(TF_INVALID_ARGUMENT, "index out of range");
    }
    if (TF_TensorElementCount(updates) != count * row_size)
      call.Fail(TF_INVALID_ARGUMENT, "updates must be indices.shape + ref.shape[1:]");
  }
  SP_Stream stream = TF_GetCode(call.status) == TF_OK ? TF_GetStream(ctx, call.status) : nullptr;
  if (TF_GetCode(call.status) == TF_OK) {
    const auto* first = static_cast<const int32_t*>(TF_TensorData(indices));
    std::vector<int32_t> index(first, first + TF_TensorElementCount(indices));
    EnqueueWork(stream, [r = static_cast<float*>(TF_TensorData(ref)),
                         u = static_cast<const float*>(TF_TensorData(updates)), index, row_size,
                         total = rows * row_size] {
#if defined(DEFECT_SCATTER_ADD_LAST_WINS)
      const std::vector<float> before(r, r + total);
#else
      (void)total;
#endif
      for (std::size_t i = 0; i < index.size(); ++i) {
        for (int64_t j = 0; j < row_size; ++j) {
          const int64_t at = index[i] * row_size + j;
#if defined(DEFECT_SCATTER_ADD_LAST_WINS)
          r[at] = before[static_cast<std::size_t>(at)] + u[static_cast<int64_t>(i) * row_size + j];
#else
          r[at] += u[static_cast<int64_t>(i) * row_size + j];
#endif
        }
      }
    });
  }
  // output_ref is ref itself, as TensorFlow's kernel forwards it.
  if (TF_GetCode(call.status) == TF_OK) Variables().forward_ref(ctx, 0, 0);
  for (TF_Tensor* t : {ref, indices, updates}) TF_DeleteTensor(t);
  if (holder != nullptr) Variables().release(holder);
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
#if defined(SCATTER_ADD_KERNEL) || defined(DEFECT_SCATTER_ADD_LAST_WINS)
  if (!Variables().complete()) return;
  TF_KernelBuilder* scatter = TF_NewKernelBuilder("ScatterAdd", device_type, CreateScatterAdd,
                                                  ComputeScatterAdd, DeleteScatterAdd);
  TF_KernelBuilder_TypeConstraint(scatter, "T", TF_FLOAT, status);
  TF_KernelBuilder_TypeConstraint(scatter, "Tindices", TF_INT32, status);
  TF_KernelBuilder_HostMemory(scatter, "indices");
  TF_RegisterKernelBuilder("ScatterAdd", scatter, status);
#endif
}

}  // namespace kernel_plugin
