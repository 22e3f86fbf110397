// String kernels of the test kernel plugin (kernel_plugin.cc), each in the variant about it:
// -DSTRING_UPPER_KERNEL a StringUpper that upper-cases ASCII letters and leaves every other
// byte, -DDEFECT_STRING_UPPER_CUTS_AT_22 one that writes at most 22 bytes of each string, the
// most a TF_TString holds inline (tensorflow/core/platform/ctstring.h): right for short strings,
// wrong for every longer one. Only string tensors carry the defect, and only cases with strings
// past 22 bytes (the generated ones: harness/kernels/string_values.h) catch it; the recorded
// oracle judges both without TensorFlow (tests/recorded_oracle).
//
// String tensors live in host memory whatever the device (TensorFlow's memory types), so the
// kernel reads and writes the elements in place, synchronously.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernel_call.h"
#include "tensorflow/c/tf_tstring.h"

namespace kernel_plugin {
namespace {

#if defined(STRING_UPPER_KERNEL) || defined(DEFECT_STRING_UPPER_CUTS_AT_22)
#if defined(DEFECT_STRING_UPPER_CUTS_AT_22)
// The defect: a kernel sized for the inline form.
constexpr std::size_t kWritten = TF_TString_SmallCapacity;
#else
constexpr std::size_t kWritten = SIZE_MAX;
#endif

void* CreateNothing(TF_OpKernelConstruction*) { return nullptr; }
void DeleteNothing(void*) {}

void ComputeStringUpper(void*, TF_OpKernelContext* ctx) {
  TF_Status* status = TF_NewStatus();
  TF_Tensor* input = nullptr;
  TF_Tensor* output = nullptr;
  TF_GetInput(ctx, 0, &input, status);
  if (TF_GetCode(status) == TF_OK) {
    const Dims dims = DimsOf(input);
    output =
        TF_AllocateOutput(ctx, 0, TF_STRING, dims.data(), static_cast<int>(dims.size()),
                          static_cast<std::size_t>(NumElements(dims)) * sizeof(TF_TString), status);
  }
  if (TF_GetCode(status) == TF_OK) {
    const auto* in = static_cast<const TF_TString*>(TF_TensorData(input));
    auto* out = static_cast<TF_TString*>(TF_TensorData(output));
    for (int64_t i = 0; i < NumElements(DimsOf(input)); ++i) {
      std::string text(TF_TString_GetDataPointer(&in[i]), TF_TString_GetSize(&in[i]));
      for (char& c : text) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      TF_TString_Copy(&out[i], text.data(), std::min(text.size(), kWritten));
    }
  }
  if (TF_GetCode(status) != TF_OK) TF_OpKernelContext_Failure(ctx, status);
  TF_DeleteTensor(input);
  TF_DeleteTensor(output);
  TF_DeleteStatus(status);
}
#endif

}  // namespace

void RegisterStringKernels([[maybe_unused]] const char* device_type,
                           [[maybe_unused]] TF_Status* status) {
#if defined(STRING_UPPER_KERNEL) || defined(DEFECT_STRING_UPPER_CUTS_AT_22)
  TF_KernelBuilder* builder = TF_NewKernelBuilder("StringUpper", device_type, CreateNothing,
                                                  ComputeStringUpper, DeleteNothing);
  TF_RegisterKernelBuilder("StringUpper", builder, status);
#endif
}

}  // namespace kernel_plugin
