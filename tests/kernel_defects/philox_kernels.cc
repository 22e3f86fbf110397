// A stateful random kernel whose state is a resource variable, judged from the recorded oracle
// (specs/ops/families/variable_ops.yaml): the case gives the Philox state's values, so the draws
// and the state after them are exact expectations.
//   -DSTATEFUL_UNIFORM_KERNEL             StatefulUniform (float): the Philox4x32-10 stream
//                                         (Salmon et al., "Parallel random numbers: as easy as
//                                         1, 2, 3", 2011) from the state's 128-bit counter
//                                         (words 0 and 1) and 64-bit key (word 2), one 32-bit
//                                         draw per value as 23 mantissa bits in [1, 2) minus 1;
//                                         the counter moved on by 256 per value, as TensorFlow's
//                                         CPU moves it (measured on 2.21.0)
//   -DDEFECT_STATEFUL_UNIFORM_KEEPS_STATE the same draws, the state left as it was: the next
//                                         call draws the same values again
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_call.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "variable_functions.h"

namespace kernel_plugin {
namespace {

#if defined(STATEFUL_UNIFORM_KERNEL) || defined(DEFECT_STATEFUL_UNIFORM_KEEPS_STATE)
// Algorithm ids of the op's `algorithm` input: Philox, and "the kernel chooses" (Philox here).
constexpr int64_t kPhilox = 1;
constexpr int64_t kAutoSelect = 3;

// One Philox4x32-10 block: four 32-bit values from a 128-bit counter and a 64-bit key.
void PhiloxBlock(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4]) {
  constexpr uint64_t kMultiplier0 = 0xD2511F53;
  constexpr uint64_t kMultiplier1 = 0xCD9E8D57;
  constexpr uint32_t kKeyStep0 = 0x9E3779B9;
  constexpr uint32_t kKeyStep1 = 0xBB67AE85;
  uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]};
  uint32_t k[2] = {key[0], key[1]};
  for (int round = 0; round < 10; ++round) {
    const uint64_t product0 = kMultiplier0 * c[0];
    const uint64_t product1 = kMultiplier1 * c[2];
    const uint32_t next[4] = {
        static_cast<uint32_t>(product1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(product1),
        static_cast<uint32_t>(product0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(product0)};
    std::memcpy(c, next, sizeof(c));
    k[0] += kKeyStep0;
    k[1] += kKeyStep1;
  }
  std::memcpy(out, c, sizeof(c));
}

// A 128-bit counter held in two 64-bit words, plus `delta`.
void AddToCounter(uint64_t& low, uint64_t& high, uint64_t delta) {
  const uint64_t before = low;
  low += delta;
  if (low < before) ++high;
}

float UnitFloat(uint32_t bits) {
  const uint32_t one_to_two = 0x3F800000U | (bits & 0x7FFFFFU);
  float value = 0;
  std::memcpy(&value, &one_to_two, sizeof(value));
  return value - 1.0f;
}

// `count` floats in [0, 1) from the state {counter low, counter high, key}.
void DrawUniform(const uint64_t state[3], float* out, int64_t count) {
  uint64_t low = state[0];
  uint64_t high = state[1];
  const uint32_t key[2] = {static_cast<uint32_t>(state[2]), static_cast<uint32_t>(state[2] >> 32)};
  for (int64_t i = 0; i < count; i += 4) {
    const uint32_t counter[4] = {static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
                                 static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)};
    uint32_t block[4];
    PhiloxBlock(counter, key, block);
    for (int64_t j = 0; j < 4 && i + j < count; ++j) out[i + j] = UnitFloat(block[j]);
    AddToCounter(low, high, 1);
  }
}

void* CreateUniform(TF_OpKernelConstruction* /*construction*/) { return nullptr; }
void DeleteUniform(void* /*kernel*/) {}

// Inputs: resource (the int64 state, its handle in host memory), algorithm (int64, host memory),
// shape (int64, host memory).
void ComputeUniform(void* /*kernel*/, TF_OpKernelContext* ctx) {
  KernelCall call(ctx);
  if (!call.Inputs(3)) return;
  const int64_t algorithm = *call.In<int64_t>(1);
  if (algorithm != kPhilox && algorithm != kAutoSelect) {
    call.Fail(TF_INVALID_ARGUMENT, "Unsupported algorithm id");
    return;
  }
  const int64_t* shape = call.In<int64_t>(2);
  const Dims dims(shape, shape + TF_TensorElementCount(call.inputs[2]));
  if (!call.Output(dims)) return;
  TF_VariableInputLockHolder* holder = nullptr;
  TF_Tensor* state = LockedVariable(ctx, 0, &holder, call.status);
  if (TF_GetCode(call.status) == TF_OK &&
      (TF_TensorType(state) != TF_INT64 || TF_TensorElementCount(state) < 3))
    call.Fail(TF_INVALID_ARGUMENT, "a Philox state is at least three int64 values");
  if (TF_GetCode(call.status) == TF_OK) {
    EnqueueWork(call.stream, [words = static_cast<uint64_t*>(TF_TensorData(state)),
                              out = call.Out(), count = NumElements(dims)] {
      const uint64_t before[3] = {words[0], words[1], words[2]};
      DrawUniform(before, out, count);
#if defined(DEFECT_STATEFUL_UNIFORM_KEEPS_STATE)
      (void)words;
#else
      constexpr uint64_t kCounterStepPerValue = 256;  // as TensorFlow's CPU moves it (2.21.0)
      AddToCounter(words[0], words[1], static_cast<uint64_t>(count) * kCounterStepPerValue);
#endif
    });
  }
  TF_DeleteTensor(state);
  if (holder != nullptr) Variables().release(holder);
}
#endif

}  // namespace

void RegisterPhiloxKernels([[maybe_unused]] const char* device_type,
                           [[maybe_unused]] TF_Status* status) {
#if defined(STATEFUL_UNIFORM_KERNEL) || defined(DEFECT_STATEFUL_UNIFORM_KEEPS_STATE)
  if (!Variables().complete()) return;  // TensorFlow 2.21: no variable functions offered
  TF_KernelBuilder* builder = TF_NewKernelBuilder("StatefulUniform", device_type, CreateUniform,
                                                  ComputeUniform, DeleteUniform);
  TF_KernelBuilder_TypeConstraint(builder, "dtype", TF_FLOAT, status);
  TF_KernelBuilder_TypeConstraint(builder, "shape_dtype", TF_INT64, status);
  TF_KernelBuilder_HostMemory(builder, "resource");
  TF_KernelBuilder_HostMemory(builder, "algorithm");
  TF_KernelBuilder_HostMemory(builder, "shape");
  TF_RegisterKernelBuilder("StatefulUniform", builder, status);
#endif
}

}  // namespace kernel_plugin
