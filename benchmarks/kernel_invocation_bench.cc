// Harness overhead per kernel invocation through the mock core, for a 1-element float AddV2:
// context construction, two inputs, output allocation (TF_AllocateOutput), the kernel's own
// TF_GetInput/TF_DeleteTensor calls, and teardown — against the same arithmetic called
// directly. The kernel computes on the host (the CPU device descriptor), so no stream or
// device copy is in the figure: this is the core's cost alone.
#include <benchmark/benchmark.h>

#include "core/kernel_context.h"
#include "core/kernel_instance.h"
#include "tensorflow/c/kernels.h"

namespace {

using namespace conformance::core;

void* Create(TF_OpKernelConstruction*) { return nullptr; }
void Delete(void*) {}

void Compute(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* x = nullptr;
  TF_Tensor* y = nullptr;
  TF_GetInput(ctx, 0, &x, status);
  TF_GetInput(ctx, 1, &y, status);
  const int64_t dims[] = {1};
  TF_Tensor* z = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, 1, sizeof(float), status);
  *static_cast<float*>(TF_TensorData(z)) =
      *static_cast<float*>(TF_TensorData(x)) + *static_cast<float*>(TF_TensorData(y));
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TF_DeleteStatus(status);
}

void BM_AddV2ThroughTheCore(benchmark::State& state) {
  KernelRegistration registration;
  registration.op_name = "AddV2";
  registration.create_func = reinterpret_cast<void*>(&Create);
  registration.compute_func = reinterpret_cast<void*>(&Compute);
  registration.delete_func = reinterpret_cast<void*>(&Delete);
  KernelConstruction construction(
      NodeDef{.name = "add", .op = "AddV2", .attrs = {{"T", TF_FLOAT}}});
  KernelInstance kernel(registration, construction);
  const Tensor x = Tensor::FromVector<float>(TF_FLOAT, {1}, {1.5f});
  const Tensor y = Tensor::FromVector<float>(TF_FLOAT, {1}, {2.0f});
  for (auto _ : state) {
    KernelContext ctx;
    ctx.AddInput(x);
    ctx.AddInput(y);
    ctx.AddOutput(TF_FLOAT);
    kernel.Compute(ctx);
    benchmark::DoNotOptimize(ctx.output(0)->data());
  }
}
BENCHMARK(BM_AddV2ThroughTheCore);

void BM_AddV2Direct(benchmark::State& state) {
  float x = 1.5f, y = 2.0f, z = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(y);
    z = x + y;
    benchmark::DoNotOptimize(z);
  }
}
BENCHMARK(BM_AddV2Direct);

}  // namespace
