// Kernels of two stateful random ops TensorFlow 2.21.0 refuses on every node (removed from its
// GraphDef version), judged by their draws (harness/kernels/random_draws.h).
//   -DRANDOM_POISSON_KERNEL                RandomPoisson (float rates and draws, int32 shape):
//                                          Knuth's product of uniforms below rate 10, above it
//                                          the normal approximation rounded to a count
//   -DDEFECT_RANDOM_POISSON_UNROUNDED      the same, but the normal approximation is not
//                                          rounded: draws for rates of 10 and more are not counts
//   -DSTATEFUL_NORMAL_KERNEL               StatefulStandardNormal (float, int64 shape): Box-Muller
//                                          from a generator seeded by the state variable's three
//                                          words, whose first word moves on by the draws made
//   -DDEFECT_STATEFUL_NORMAL_KEEPS_STATE   the same, the state left as it was: the next step
//                                          draws the same values again
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "variable_functions.h"

namespace kernel_plugin {
namespace {

// A uniform double in (0, 1) with 53 bits.
[[maybe_unused]] double Unit(std::mt19937_64& generator) {
  return (static_cast<double>(generator() >> 11) + 0.5) * 0x1.0p-53;
}

[[maybe_unused]] double Normal(std::mt19937_64& generator) {
  return std::sqrt(-2 * std::log(Unit(generator))) * std::cos(2 * M_PI * Unit(generator));
}

#if defined(RANDOM_POISSON_KERNEL) || defined(DEFECT_RANDOM_POISSON_UNROUNDED)
void* CreatePoisson(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  std::int64_t seed = 0, seed2 = 0;
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed", &seed, status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed2", &seed2, status);
  TF_DeleteStatus(status);
  return new std::mt19937_64(static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL ^
                             static_cast<std::uint64_t>(seed2));
}
void DeletePoisson(void* kernel) { delete static_cast<std::mt19937_64*>(kernel); }

double Poisson(std::mt19937_64& generator, double rate) {
  if (rate >= 10) {
    const double draw = rate + std::sqrt(rate) * Normal(generator);
#if defined(DEFECT_RANDOM_POISSON_UNROUNDED)
    return std::max(0.0, draw);
#else
    return std::max(0.0, std::round(draw));
#endif
  }
  const double limit = std::exp(-rate);
  double product = Unit(generator);
  double count = 0;
  while (product > limit) {
    product *= Unit(generator);
    ++count;
  }
  return count;
}

// Inputs: shape (int32, host memory), rate (float). Output: shape + rate's shape.
void ComputePoisson(void* kernel, TF_OpKernelContext* ctx) {
  auto& generator = *static_cast<std::mt19937_64*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  Dims dims;
  for (int64_t i = 0; i < TF_TensorElementCount(call.inputs[0]); ++i)
    dims.push_back(call.In<int32_t>(0)[i]);
  const Dims rate_dims = DimsOf(call.inputs[1]);
  dims.insert(dims.end(), rate_dims.begin(), rate_dims.end());
  if (!call.Output(dims)) return;
  // The rates are on the device: read them in the work, drawing there in order.
  const int64_t rates = TF_TensorElementCount(call.inputs[1]);
  EnqueueWork(call.stream,
              [&generator, rate = call.In(1), out = call.Out(), rates, count = NumElements(dims)] {
                for (int64_t i = 0; i < count; ++i)
                  out[i] = static_cast<float>(Poisson(generator, rate[i % rates]));
              });
}
#endif

#if defined(STATEFUL_NORMAL_KERNEL) || defined(DEFECT_STATEFUL_NORMAL_KEEPS_STATE)
void* CreateNothing(TF_OpKernelConstruction* /*construction*/) { return nullptr; }
void DeleteNothing(void* /*kernel*/) {}

// Inputs: resource (the int64 state, its handle in host memory), shape (int64, host memory).
void ComputeStatefulNormal(void* /*kernel*/, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const int64_t* shape = call.In<int64_t>(1);
  const Dims dims(shape, shape + TF_TensorElementCount(call.inputs[1]));
  if (!call.Output(dims)) return;
  TF_VariableInputLockHolder* holder = nullptr;
  TF_Tensor* state = LockedVariable(ctx, 0, &holder, call.status);
  if (TF_GetCode(call.status) == TF_OK &&
      (TF_TensorType(state) != TF_INT64 || TF_TensorElementCount(state) < 3))
    call.Fail(TF_INVALID_ARGUMENT, "the state is three int64 values");
  if (TF_GetCode(call.status) == TF_OK) {
    EnqueueWork(call.stream, [words = static_cast<uint64_t*>(TF_TensorData(state)),
                              out = call.Out(), count = NumElements(dims)] {
      std::seed_seq seeds{words[0], words[1], words[2]};
      std::mt19937_64 generator(seeds);
      for (int64_t i = 0; i < count; ++i) out[i] = static_cast<float>(Normal(generator));
#if !defined(DEFECT_STATEFUL_NORMAL_KEEPS_STATE)
      words[0] += static_cast<uint64_t>(count);  // the next call starts past these draws
#endif
    });
  }
  TF_DeleteTensor(state);
  if (holder != nullptr) Variables().release(holder);
}
#endif

}  // namespace

void RegisterLegacyRandomKernels([[maybe_unused]] const char* device_type,
                                 [[maybe_unused]] TF_Status* status) {
#if defined(RANDOM_POISSON_KERNEL) || defined(DEFECT_RANDOM_POISSON_UNROUNDED)
  TF_KernelBuilder* poisson = TF_NewKernelBuilder("RandomPoisson", device_type, CreatePoisson,
                                                  ComputePoisson, DeletePoisson);
  TF_KernelBuilder_TypeConstraint(poisson, "dtype", TF_FLOAT, status);
  TF_KernelBuilder_TypeConstraint(poisson, "S", TF_INT32, status);
  TF_KernelBuilder_HostMemory(poisson, "shape");
  TF_RegisterKernelBuilder("RandomPoisson", poisson, status);
#endif
#if defined(STATEFUL_NORMAL_KERNEL) || defined(DEFECT_STATEFUL_NORMAL_KEEPS_STATE)
  if (!Variables().complete()) return;  // TensorFlow 2.19 on: no variable functions offered
  TF_KernelBuilder* normal = TF_NewKernelBuilder(
      "StatefulStandardNormal", device_type, CreateNothing, ComputeStatefulNormal, DeleteNothing);
  TF_KernelBuilder_TypeConstraint(normal, "dtype", TF_FLOAT, status);
  TF_KernelBuilder_TypeConstraint(normal, "shape_dtype", TF_INT64, status);
  TF_KernelBuilder_HostMemory(normal, "resource");
  TF_KernelBuilder_HostMemory(normal, "shape");
  TF_RegisterKernelBuilder("StatefulStandardNormal", normal, status);
#endif
}

}  // namespace kernel_plugin
