// complex64 kernels no scenario covers, judged only by the generated cases of their complex cells
// (the record: tests/recorded_oracle; harness/kernels/complex_values.h). Each is compiled in only
// by its switch:
//   -DCONJ_KERNEL                  Conj: the imaginary part negated
//   -DCONJ_ONE_ULP                 Conj one ULP off in each part (toward zero), within the
//                                  default tolerance of 4 ULP per part: a legal implementation
//   -DDEFECT_CONJ_DOES_NOTHING     Conj that copies its input (only the imaginary parts are
//                                  wrong: a real-only comparison would pass it)
//   -DDEFECT_CONJ_SWAPS_PARTS      Conj that writes the conjugate's parts swapped
//                                  (-imaginary, real): wrong wherever they differ
#include <cmath>
#include <cstdint>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(CONJ_KERNEL) || defined(CONJ_ONE_ULP) || defined(DEFECT_CONJ_DOES_NOTHING) || \
    defined(DEFECT_CONJ_SWAPS_PARTS)
#define CONJ_KERNELS 1
#endif

#if defined(CONJ_KERNELS)
// One complex64 element, its parts as TensorFlow lays them out: real, imaginary.
struct Complex64 {
  float real, imaginary;
};

Complex64 Conj(Complex64 x) {
#if defined(DEFECT_CONJ_DOES_NOTHING)
  return x;
#elif defined(DEFECT_CONJ_SWAPS_PARTS)
  return {-x.imaginary, x.real};
#elif defined(CONJ_ONE_ULP)
  // Toward zero keeps infinities, NaN and zeros as they are.
  const auto nudge = [](float v) {
    return std::isfinite(v) && v != 0 ? std::nextafter(v, 0.0f) : v;
  };
  return {nudge(x.real), nudge(-x.imaginary)};
#else
  return {x.real, -x.imaginary};
#endif
}

void* CreateNothing(TF_OpKernelConstruction*) { return nullptr; }
void DeleteNothing(void*) {}

void ComputeConj(void*, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims dims = DimsOf(call.inputs[0]);
  if (!call.Output(TF_COMPLEX64, dims)) return;
  EnqueueWork(call.stream,
              [in = call.In<Complex64>(0), out = call.Out<Complex64>(), n = NumElements(dims)] {
                for (int64_t i = 0; i < n; ++i) out[i] = Conj(in[i]);
              });
}
#endif

}  // namespace

void RegisterComplexKernels([[maybe_unused]] const char* device_type,
                            [[maybe_unused]] TF_Status* status) {
#if defined(CONJ_KERNELS)
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder("Conj", device_type, CreateNothing, ComputeConj, DeleteNothing);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_COMPLEX64, status);
  TF_RegisterKernelBuilder("Conj", builder, status);
#endif
}

}  // namespace kernel_plugin
