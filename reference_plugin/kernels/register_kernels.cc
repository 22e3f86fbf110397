#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {

Status register_all_kernels() {
  Status first;
  keep_first_error(first, register_elementwise_binary_kernels());
  keep_first_error(first, register_unary_math_kernels());
  keep_first_error(first, register_activation_kernels());
  keep_first_error(first, register_softmax_kernels());
  keep_first_error(first, register_cast_kernels());
  keep_first_error(first, register_matmul_kernels());
  keep_first_error(first, register_conv2d_kernels());
  keep_first_error(first, register_bias_add_kernels());
  keep_first_error(first, register_reduction_kernels());
  keep_first_error(first, register_shape_op_kernels());
  keep_first_error(first, register_reshape_kernels());
  keep_first_error(first, register_pooling_kernels());
  keep_first_error(first, register_gradient_kernels());
  keep_first_error(first, register_training_kernels());
  keep_first_error(first, register_scale_op());
  return first;
}

}  // namespace reference_plugin::kernels
