// Stateful random kernels, judged by their draws (harness/kernels/random_draws.h): a generator
// kept in the kernel object and advanced on every compute, as TensorFlow's own are.
//   -DRANDOM_UNIFORM_KERNEL               RandomUniform (float) in [0, 1)
//   -DDEFECT_RANDOM_UNIFORM_RESTARTS      the generator lives in compute, seeded from the seed
//                                         attrs each time: every step draws the same values
//   -DRANDOM_NORMAL_KERNEL                RandomStandardNormal (float), Box-Muller
//   -DDEFECT_RANDOM_NORMAL_HALF_VARIANCE  Box-Muller without its factor 2 (sqrt(-log u)):
//                                         variance 0.5
//   -DMULTINOMIAL_KERNEL                  Multinomial (float logits, int64 or int32 classes):
//                                         inverse CDF of the softmax, -inf logits weigh 0
//   -DDEFECT_MULTINOMIAL_CLAMPS_INF       -inf logits clamped to the row's least finite one
//                                         first (a guard against NaN from exp(-inf - max)):
//                                         classes of probability 0 are drawn
//   -DCANDIDATE_SAMPLER_KERNEL            UniformCandidateSampler: uniform in [0, range_max),
//                                         unique by rejection, expected counts
//                                         num_sampled / range_max
//   -DDEFECT_SAMPLER_IGNORES_RANGE_MAX    candidates below 2^31 whatever range_max says
//   -DOTHER_RANDOM_BITS                   with either correct kernel: another generator
//                                         (minstd) and another seed mix, so every draw differs
//                                         from the first variant's: the judges must not care
#include <cmath>
#include <cstdint>
#include <algorithm>
#include <random>
#include <set>
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

#if defined(MULTINOMIAL_KERNEL) || defined(DEFECT_MULTINOMIAL_CLAMPS_INF) || \
    defined(CANDIDATE_SAMPLER_KERNEL) || defined(DEFECT_SAMPLER_IGNORES_RANGE_MAX)
#define CHOICE_KERNELS 1
#endif

#if defined(CHOICE_KERNELS)
#if defined(OTHER_RANDOM_BITS)
using Engine = std::minstd_rand;
#else
using Engine = std::mt19937_64;
#endif

// The kernel object: the generator, advanced on every compute, and the attrs it needs.
struct ChoiceKernel {
  Engine generator;
  TF_DataType output_dtype = TF_INT64;
  std::int64_t num_sampled = 0, range_max = 0;
  bool unique = false;
};

void* CreateChoice(TF_OpKernelConstruction* construction) {
  TF_Status* status = TF_NewStatus();
  std::int64_t seed = 0, seed2 = 0;
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed", &seed, status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "seed2", &seed2, status);
#if defined(OTHER_RANDOM_BITS)
  const auto mixed = static_cast<std::uint64_t>(seed2) * 31 + static_cast<std::uint64_t>(seed);
#else
  const auto mixed =
      static_cast<std::uint64_t>(seed) * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(seed2);
#endif
  auto* kernel = new ChoiceKernel{Engine(static_cast<Engine::result_type>(mixed))};
  TF_OpKernelConstruction_GetAttrType(construction, "output_dtype", &kernel->output_dtype, status);
  TF_SetStatus(status, TF_OK, "");  // a sampler has no output_dtype
  TF_OpKernelConstruction_GetAttrInt64(construction, "num_sampled", &kernel->num_sampled, status);
  TF_OpKernelConstruction_GetAttrInt64(construction, "range_max", &kernel->range_max, status);
  TF_Bool unique = 0;
  TF_OpKernelConstruction_GetAttrBool(construction, "unique", &unique, status);
  kernel->unique = unique != 0;
  TF_DeleteStatus(status);
  return kernel;
}
void DeleteChoice(void* kernel) { delete static_cast<ChoiceKernel*>(kernel); }

// A uniform double in [0, 1).
double Uniform(Engine& generator) { return std::generate_canonical<double, 53>(generator); }
#endif

#if defined(MULTINOMIAL_KERNEL) || defined(DEFECT_MULTINOMIAL_CLAMPS_INF)
// Multinomial: the logits [batch, classes] are on the device, num_samples in host memory; the
// classes are drawn in the queued work, by the inverse CDF of each row's softmax.
void ComputeMultinomial(void* kernel, TF_OpKernelContext* ctx) {
  auto* state = static_cast<ChoiceKernel*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(2)) return;
  const Dims logits_dims = DimsOf(call.inputs[0]);
  const std::int64_t samples = *call.In<std::int32_t>(1);
  const std::int64_t rows = logits_dims[0], classes = logits_dims[1];
  if (!call.Output(state->output_dtype, {rows, samples})) return;
  EnqueueWork(call.stream, [state, logits = call.In(0), out = TF_TensorData(call.output), rows,
                            classes, samples] {
    for (std::int64_t r = 0; r < rows; ++r) {
      std::vector<double> row(logits + r * classes, logits + (r + 1) * classes);
#if defined(DEFECT_MULTINOMIAL_CLAMPS_INF)
      double least = INFINITY;
      for (double logit : row)
        if (std::isfinite(logit)) least = std::min(least, logit);
      for (double& logit : row)
        if (!std::isfinite(logit)) logit = least;  // the defect: -inf becomes a real class
#endif
      const double top = *std::max_element(row.begin(), row.end());
      std::vector<double> cdf;
      cdf.reserve(row.size());
      double total = 0;
      for (double logit : row) cdf.push_back(total += std::exp(logit - top));  // exp(-inf) = 0
      for (std::int64_t s = 0; s < samples; ++s) {
        const double u = Uniform(state->generator) * total;
        // The first class whose cumulative weight exceeds u: never one of weight 0.
        const auto drawn = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
        const std::int64_t at = r * samples + s;
        if (state->output_dtype == TF_INT32) {
          static_cast<std::int32_t*>(out)[at] = static_cast<std::int32_t>(drawn);
        } else {
          static_cast<std::int64_t*>(out)[at] = drawn;
        }
      }
    }
  });
}
#endif

#if defined(CANDIDATE_SAMPLER_KERNEL) || defined(DEFECT_SAMPLER_IGNORES_RANGE_MAX)
// UniformCandidateSampler: candidates drawn when compute runs (they depend on no input's
// values), written by the queued work with their expected counts.
void ComputeSampler(void* kernel, TF_OpKernelContext* ctx) {
  auto* state = static_cast<ChoiceKernel*>(kernel);
  KernelCall call(ctx);
  if (!call.Inputs(1)) return;
  const Dims true_dims = DimsOf(call.inputs[0]);
#if defined(DEFECT_SAMPLER_IGNORES_RANGE_MAX)
  const std::int64_t range = std::int64_t{1} << 31;  // the defect: a fixed vocabulary size
#else
  const std::int64_t range = state->range_max;
#endif
  std::vector<std::int64_t> candidates;
  std::set<std::int64_t> seen;
  while (static_cast<std::int64_t>(candidates.size()) < state->num_sampled) {
    const auto id =
        static_cast<std::int64_t>(Uniform(state->generator) * static_cast<double>(range));
    if (state->unique && !seen.insert(id).second) continue;
    candidates.push_back(id);
  }
  const float expected =
      static_cast<float>(state->num_sampled) / static_cast<float>(state->range_max);
  if (!call.Output(TF_INT64, {state->num_sampled})) return;
  TF_Tensor* counts[2] = {
      TF_AllocateOutput(ctx, 1, TF_FLOAT, true_dims.data(), static_cast<int>(true_dims.size()),
                        static_cast<std::size_t>(NumElements(true_dims)) * sizeof(float),
                        call.status),
      nullptr};
  if (TF_GetCode(call.status) != TF_OK) return;
  counts[1] =
      TF_AllocateOutput(ctx, 2, TF_FLOAT, &state->num_sampled, 1,
                        static_cast<std::size_t>(state->num_sampled) * sizeof(float), call.status);
  if (TF_GetCode(call.status) != TF_OK) {
    TF_DeleteTensor(counts[0]);
    return;
  }
  EnqueueWork(
      call.stream,
      [out = call.Out<std::int64_t>(), candidates = std::move(candidates),
       true_counts = static_cast<float*>(TF_TensorData(counts[0])), true_n = NumElements(true_dims),
       sampled_counts = static_cast<float*>(TF_TensorData(counts[1])), expected] {
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          out[i] = candidates[i];
          sampled_counts[i] = expected;
        }
        for (std::int64_t i = 0; i < true_n; ++i) true_counts[i] = expected;
      });
  TF_DeleteTensor(counts[0]);
  TF_DeleteTensor(counts[1]);
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
#if defined(MULTINOMIAL_KERNEL) || defined(DEFECT_MULTINOMIAL_CLAMPS_INF)
  TF_KernelBuilder* multinomial = TF_NewKernelBuilder("Multinomial", device_type, CreateChoice,
                                                      ComputeMultinomial, DeleteChoice);
  TF_KernelBuilder_TypeConstraint(multinomial, "T", TF_FLOAT, status);
  TF_KernelBuilder_HostMemory(multinomial, "num_samples");
  TF_RegisterKernelBuilder("Multinomial", multinomial, status);
#endif
#if defined(CANDIDATE_SAMPLER_KERNEL) || defined(DEFECT_SAMPLER_IGNORES_RANGE_MAX)
  TF_KernelBuilder* sampler = TF_NewKernelBuilder("UniformCandidateSampler", device_type,
                                                  CreateChoice, ComputeSampler, DeleteChoice);
  TF_RegisterKernelBuilder("UniformCandidateSampler", sampler, status);
#endif
}

}  // namespace kernel_plugin
