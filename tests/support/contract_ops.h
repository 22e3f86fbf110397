#pragma once
// The ops every conforming kernel set is measured against (specs/ops, the kernel tier's op
// contract): the op catalogue must define each, and the reference plugin must register each.
#include <array>
#include <string_view>

namespace conformance::test_support {

inline constexpr std::array<std::string_view, 39> kContractOps = {
    // clang-format off
    "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference",
    "Relu", "Relu6", "Elu", "Sigmoid", "Tanh", "Softmax", "LogSoftmax",
    "Neg", "Abs", "Exp", "Log", "Sqrt", "Rsqrt", "Square",
    "Cast", "Identity", "MatMul", "BatchMatMulV2", "Conv2D", "BiasAdd", "Sum",
    "Mean", "Max", "Transpose", "Fill", "ZerosLike", "Reshape", "MaxPool",
    "AvgPool", "ReluGrad", "BiasAddGrad", "ResourceApplyGradientDescent",
    // clang-format on
};

}  // namespace conformance::test_support
