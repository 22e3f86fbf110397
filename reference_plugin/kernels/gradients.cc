// The gradient kernels TensorFlow's autodiff emits for Relu and BiasAdd:
//   ReluGrad(gradients, features) = gradients * (features > 0 ? 1 : 0): a product, as in
//   TensorFlow, so a NaN gradient stays NaN where the feature is not positive, a negative one
//   gives -0 there, and a NaN feature gives a zero (the comparison is false);
//   BiasAddGrad(out_backprop) = out_backprop summed over every dimension but the channel one
//   (the last for NHWC, dimension 1 for NCHW): a vector of the bias's length.
#include <string>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

template <typename T>
class ReluGradKernel : public OpKernel {
 public:
  ReluGradKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef gradients, features, backprops;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &gradients));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &features));
    if (gradients.shape() != features.shape()) {
      // TensorFlow names the node and the op; two spaces before "Input 0" are its text.
      return invalid_argument(
          "Inputs to operation ", ctx.kernel_name(), " of type ReluGrad",
          " must have the same size and shape.  Input 0: ", shape_string(gradients.shape()),
          " != input 1: ", shape_string(features.shape()));
    }
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, features.shape(), &backprops));
    return ctx.enqueue([g = gradients.data<const T>(), f = features.data<const T>(),
                        out = backprops.data<T>(), n = features.num_elements()] {
      for (int64_t i = 0; i < n; ++i) {
        using C = ComputeType<T>;
        out[i] = narrow<T>(wrapping_mul(widen(g[i]), widen(f[i]) > C{0} ? C{1} : C{0}));
      }
    });
  }
};

template <typename T>
class BiasAddGradKernel : public OpKernel {
 public:
  BiasAddGradKernel(AttrReader& attrs, Status* status) {
    std::string format = "NHWC";
    if (attrs.has("data_format")) *status = attrs.get("data_format", &format);
    if (!status->ok()) return;
    if (format != "NHWC" && format != "NCHW") {
      *status = invalid_argument("Invalid data format");
      return;
    }
    channels_first_ = format == "NCHW";
  }

  Status compute(OpContext& ctx) override {
    TensorRef out_backprop, output;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &out_backprop));
    const Shape shape = out_backprop.shape();
    if (shape.size() < 2) {
      return invalid_argument("Input tensor must be at least 2D: ", shape_string(shape));
    }
    const std::size_t channel_dim = channels_first_ ? 1 : shape.size() - 1;
    const int64_t channels = shape[channel_dim];
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, Shape{channels}, &output));
    if (channels == 0) return Status();
    // Elements between two neighbours along the channel dimension.
    const int64_t inner = row_major_strides(shape)[channel_dim];
    return ctx.enqueue([in = out_backprop.data<const T>(), out = output.data<T>(),
                        n = out_backprop.num_elements(), channels, inner] {
      using Acc = AccumulatorType<T>;
      for (int64_t c = 0; c < channels; ++c) {
        Acc sum{0};
        // Every element whose channel index is c: runs of `inner` elements, one per outer step.
        for (int64_t start = c * inner; start < n; start += channels * inner) {
          for (int64_t i = start; i < start + inner; ++i) {
            sum = wrapping_add(sum, static_cast<Acc>(widen(in[i])));
          }
        }
        out[c] = narrow<T>(static_cast<ComputeType<T>>(sum));
      }
    });
  }

 private:
  bool channels_first_ = false;
};

}  // namespace

Status register_gradient_kernels() {
  Status first;
  keep_first_error(first, register_for_types<ReluGradKernel>("ReluGrad", NumericTypes{}));
  keep_first_error(first, register_for_types<BiasAddGradKernel>("BiasAddGrad", NumericTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
