// BiasAdd: output = value + bias, the bias added along the channel dimension: the last one
// for data_format NHWC (default), dimension 1 for NCHW.
#include <string>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

template <typename T>
class BiasAddKernel : public OpKernel {
 public:
  BiasAddKernel(AttrReader& attrs, Status* status) {
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
    TensorRef value, bias, output;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &value));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &bias));
    const Shape shape = value.shape();
    if (shape.size() < 2) {
      return invalid_argument("Input tensor must be at least 2D: ", shape_string(shape));
    }
    if (bias.dims() != 1)
      return invalid_argument("Biases must be 1D: ", shape_string(bias.shape()));
    const std::size_t channel_dim = channels_first_ ? 1 : shape.size() - 1;
    if (bias.dim(0) != shape[channel_dim]) {
      return invalid_argument("Must provide as many biases as the ",
                              channels_first_ ? "channel" : "last",
                              " dimension of the input tensor: ", shape_string(bias.shape()),
                              " vs. ", shape_string(shape));
    }
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, shape, &output));
    const int64_t channels = shape[channel_dim];
    // Elements between two neighbours along the channel dimension.
    const int64_t inner = row_major_strides(shape)[channel_dim];
    return ctx.enqueue([x = value.data<const T>(), b = bias.data<const T>(), y = output.data<T>(),
                        n = value.num_elements(), channels, inner] {
      for (int64_t i = 0; i < n; ++i) {
        y[i] = narrow<T>(wrapping_add(widen(x[i]), widen(b[(i / inner) % channels])));
      }
    });
  }

 private:
  bool channels_first_ = false;
};

}  // namespace

Status register_bias_add_kernels() {
  return register_for_types<BiasAddKernel>("BiasAdd", NumericTypes{});
}

}  // namespace reference_plugin::kernels
