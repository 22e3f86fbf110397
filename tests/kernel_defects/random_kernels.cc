// Stateful random kernels, judged by their draws (harness/kernels/random_draws.h): a generator
// kept in the kernel object and advanced on every compute, as TensorFlow's own are.
//   -DRANDOM_UNIFORM_KERNEL               RandomUniform (float) in [0, 1)
//   -DDEFECT_RANDOM_UNIFORM_RESTARTS      the generator lives in compute, seeded from the seed
//                                         attrs each time: every step draws the same values
//   -DRANDOM_NORMAL_KERNEL                RandomStandardNormal (float), Box-Muller
//   -DDEFECT_RANDOM_NORMAL_HALF_VARIANCE  Box-Muller without its factor 2 (sqrt(-log u)):
//                                         variance 0.5
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

namespace kernel_plugin {
namespace {

#if defined(RANDOM_UNIFORM_KERNEL) || defined(DEFECT_RANDOM_UNIFORM_RESTARTS) || \
    defined(RANDOM_NORMAL_KERNEL) || defined(DEFECT_RANDOM_NORMAL_HALF_VARIANCE)
#define RANDOM_KERNELS 1
#endif

#if defined(RANDOM_KERNELS)
// The seed attrs; both 0 asks for a seed of the kernel's own choosing.
std::uint64_t SeedOf(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  std::int64_t seed = 0, seed2 = 0;
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed", &seed, status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed2", &seed2, status);
  TF_DeleteStatus(status);
  if (seed == 0 && seed2 == 0) return std::random_device{}();
  return static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL ^
         static_cast<std::uint64_t>(seed2);
}

struct RandomKernel {
  std::uint64_t seed;
  std::mt19937_64 generator;
};

void* CreateRandom(TF_OpKernelConstruction* construction) {
  const std::uint64_t seed = SeedOf(construction);
  return new RandomKernel{seed, std::mt19937_64(seed)};
}
void DeleteRandom(void* kernel) { delete static_cast<RandomKernel*>(kernel); }

// A uniform double in (0, 1) with 53 bits.
[[maybe_unused]] double Unit(std::mt19937_64& generator) {
  return (static_cast<double>(generator() >> 11) + 0.5) * 0x1.0p-53;
}

float Draw(std::mt19937_64& generator) {
#if defined(RANDOM_UNIFORM_KERNEL) || defined(DEFECT_RANDOM_UNIFORM_RESTARTS)
  return static_cast<float>(generator() >> 40) * 0x1.0p-24f;  // [0, 1), 24 bits
#elif defined(DEFECT_RANDOM_NORMAL_HALF_VARIANCE)
  return static_cast<float>(std::sqrt(-std::log(Unit(generator))) *
                            std::cos(2 * M_PI * Unit(generator)));
#else
  return static_cast<float>(std::sqrt(-2 * std::log(Unit(generator))) *
                            std::cos(2 * M_PI * Unit(generator)));
#endif
}

void ComputeRandom(void* kernel, TF_OpKernelContext* ctx) {
  auto* state = static_cast<RandomKernel*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const TF_Tensor* shape = call.inputs[0];
  Dims dims;
  for (int64_t i = 0; i < TF_TensorElementCount(shape); ++i)
    dims.push_back(static_cast<const int32_t*>(TF_TensorData(shape))[i]);
  if (!call.Output(dims)) return;
#if defined(DEFECT_RANDOM_UNIFORM_RESTARTS)
  std::mt19937_64 generator(state->seed);  // the defect: started over on every compute
#else
  std::mt19937_64& generator = state->generator;
#endif
  std::vector<float> values(static_cast<std::size_t>(NumElements(dims)));
  for (float& value : values) value = Draw(generator);
  EnqueueWork(call.stream, [out = call.Out(), values = std::move(values)] {
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  });
}

void RegisterRandom(const char* op, const char* device_type, TF_Status* status) {
  TF_KernelBuilder* builder =
      TF_NewKernelBuilder(op, device_type, CreateRandom, ComputeRandom, DeleteRandom);
  TF_KernelBuilder_TypeConstraint(builder, "dtype", TF_FLOAT, status);
  TF_KernelBuilder_TypeConstraint(builder, "T", TF_INT32, status);
  TF_KernelBuilder_HostMemory(builder, "shape");
  TF_RegisterKernelBuilder(op, builder, status);
}
#endif

}  // namespace

void RegisterRandomKernels([[maybe_unused]] const char* device_type,
                           [[maybe_unused]] TF_Status* status) {
#if defined(RANDOM_UNIFORM_KERNEL) || defined(DEFECT_RANDOM_UNIFORM_RESTARTS)
  RegisterRandom("RandomUniform", device_type, status);
#elif defined(RANDOM_KERNELS)
  RegisterRandom("RandomStandardNormal", device_type, status);
#endif
}

}  // namespace kernel_plugin
