// Reshape: the input's elements under a new shape, read from `shape` in host memory. The output
// is a view of the input's buffer (no copy, no device work), as TensorFlow's kernel makes it.
#include <vector>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

// The requested shape with its -1 (if any) inferred, or TensorFlow's error. Zero sizes are
// special: they make the product of the requested sizes useless for inference, so TensorFlow
// leaves them, and the input's zero dimensions, out of the division that infers the -1.
Status infer_shape(const std::vector<int64_t>& sizes, const Shape& input_shape, Shape* out) {
  Shape shape(sizes.size());
  int64_t product = 1;
  int unknown = -1;
  bool has_zero = false;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    const int64_t size = sizes[d];
    if (size == -1) {
      if (unknown != -1) {
        return invalid_argument("Only one input size may be -1, not both ", unknown, " and ", d);
      }
      unknown = static_cast<int>(d);
      shape[d] = 1;
    } else if (size < 0) {
      return invalid_argument("Size ", d, " must be non-negative, not ", size);
    } else {
      shape[d] = size;
      if (size == 0)
        has_zero = true;
      else
        product *= size;
    }
  }
  const int64_t input_elements = num_elements(input_shape);
  if (unknown != -1) {
    int64_t counted = 1;
    bool input_has_zero = false;
    for (int64_t dim : input_shape) {
      if (dim > 0 || !has_zero)
        counted *= dim;
      else
        input_has_zero = true;
    }
    const int64_t missing = counted / product;
    if (!input_has_zero && missing * product != counted) {
      return invalid_argument("Input to reshape is a tensor with ", counted,
                              " values, but the requested shape requires a multiple of ", product);
    }
    shape[static_cast<std::size_t>(unknown)] = missing;
  }
  if (num_elements(shape) != input_elements) {
    return invalid_argument("Input to reshape is a tensor with ", input_elements,
                            " values, but the requested shape has ", num_elements(shape));
  }
  *out = shape;
  return Status();
}

template <typename T, typename Tshape>
class ReshapeKernel : public OpKernel {
 public:
  ReshapeKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef tensor, sizes;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &tensor));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &sizes));
    // A scalar counts as a vector of one size, as TensorFlow's legacy rule allows.
    if (sizes.dims() > 1) {
      return invalid_argument("sizes input must be 1-D, not ", shape_string(sizes.shape()));
    }
    std::vector<int64_t> requested(static_cast<std::size_t>(sizes.num_elements()));
    for (std::size_t i = 0; i < requested.size(); ++i) requested[i] = sizes.data<const Tshape>()[i];
    Shape shape;
    REFERENCE_RETURN_IF_ERROR(infer_shape(requested, tensor.shape(), &shape));
    return ctx.set_output_reshaped(0, tensor, shape);
  }
};

}  // namespace

Status register_reshape_kernels() {
  return register_for_type_pairs<ReshapeKernel>("Reshape", AllTypes{}, "T", IndexTypes{}, "Tshape",
                                                {"shape"});
}

}  // namespace reference_plugin::kernels
