#pragma once
// One registration function per op family (one .cc file each). register_all_kernels() calls
// them all from TF_InitKernel.
#include "stream_executor/status.h"

namespace reference_plugin::kernels {

Status register_elementwise_binary_kernels();  // elementwise_binary.cc
Status register_unary_math_kernels();          // unary_math.cc
Status register_activation_kernels();          // activations.cc
Status register_softmax_kernels();             // softmax.cc
Status register_cast_kernels();                // cast.cc
Status register_matmul_kernels();              // matmul.cc
Status register_conv2d_kernels();              // conv2d.cc
Status register_bias_add_kernels();            // bias_add.cc
Status register_reduction_kernels();           // reduction.cc
Status register_shape_op_kernels();            // shape_ops.cc: Identity, Transpose, Fill, ZerosLike
Status register_reshape_kernels();             // reshape.cc
Status register_pooling_kernels();             // pooling.cc: MaxPool, AvgPool
Status register_gradient_kernels();            // gradients.cc: ReluGrad, BiasAddGrad
// training.cc: ResourceApplyGradientDescent, only where the process has the variable functions
// of kernels_experimental.h (variable_api.h); TensorFlow 2.21 has none.
Status register_training_kernels();

// The plugin's own op (ops.h definition with a shape function, then its kernels): scale.cc.
inline constexpr char kScaleOp[] = "Reference>Scale";
Status register_scale_op();

// Registers every kernel for REFDEV; returns the first error (all families still register).
Status register_all_kernels();

}  // namespace reference_plugin::kernels
