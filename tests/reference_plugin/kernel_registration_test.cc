// What TF_InitKernel registers: every op of the catalogue for REFDEV, one registration per
// supported dtype, each with its type constraints, and host memory for the arguments whose
// values decide output shapes.
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "../support/contract_ops.h"

#include "kernel_test_support.h"

namespace reference_plugin_test {
namespace {

// op -> set of dtypes constrained on its "T" attr (SrcT for Cast).
std::map<std::string, std::set<int>> dtypes_by_op() {
  std::map<std::string, std::set<int>> out;
  for (const auto& k : reference_kernels()) {
    for (const auto& [attr, dtype] : k.type_constraints) {
      if (attr == "T" || attr == "SrcT") out[k.op_name].insert(dtype);
    }
  }
  return out;
}

TEST(ReferenceKernelRegistration, EveryCatalogueOpIsRegisteredForRefdev) {
  const auto ops = dtypes_by_op();
  for (std::string_view contract_op : conformance::test_support::kContractOps) {
    const std::string op(contract_op);
    ASSERT_TRUE(ops.count(op)) << op << " is not registered";
    EXPECT_TRUE(ops.at(op).count(TF_FLOAT)) << op << " has no float kernel";
  }
  for (const auto& k : reference_kernels()) {
    EXPECT_EQ(k.device_type, "REFDEV") << k.op_name;
    EXPECT_FALSE(k.type_constraints.empty()) << k.op_name << " has an unconstrained type attr";
    EXPECT_NE(k.create_func, nullptr);
    EXPECT_NE(k.compute_func, nullptr);
    EXPECT_NE(k.delete_func, nullptr);
  }
}

TEST(ReferenceKernelRegistration, DtypesFollowTheOps) {
  const auto ops = dtypes_by_op();
  const std::set<int> numeric{TF_FLOAT, TF_HALF, TF_BFLOAT16, TF_DOUBLE, TF_INT32, TF_INT64};
  const std::set<int> floating{TF_FLOAT, TF_HALF, TF_BFLOAT16, TF_DOUBLE};
  EXPECT_EQ(ops.at("AddV2"), numeric);
  EXPECT_EQ(ops.at("MatMul"), numeric);
  EXPECT_EQ(ops.at("RealDiv"), floating);
  EXPECT_EQ(ops.at("Exp"), floating);
  EXPECT_EQ(ops.at("Softmax"), floating);
  EXPECT_EQ(ops.at("Conv2D"), (std::set<int>{TF_FLOAT, TF_HALF, TF_BFLOAT16, TF_DOUBLE, TF_INT32}));
  EXPECT_TRUE(ops.at("Identity").count(TF_BOOL));
}

TEST(ReferenceKernelRegistration, NoTwoRegistrationsAreTheSame) {
  std::set<std::string> keys;
  for (const auto& k : reference_kernels()) {
    std::string key = k.op_name + "/" + k.device_type;
    for (const auto& [attr, dtype] : k.type_constraints)
      key += "/" + attr + "=" + std::to_string(dtype);
    EXPECT_TRUE(keys.insert(key).second) << "duplicate " << key;
  }
  // Sum/Mean/Max and Transpose/Fill: T x index type.
  EXPECT_EQ(reference_kernels().size(), keys.size());
}

TEST(ReferenceKernelRegistration, ShapeDecidingArgumentsLiveInHostMemory) {
  const std::map<std::string, std::string> host_arg{{"Sum", "reduction_indices"},
                                                    {"Mean", "reduction_indices"},
                                                    {"Max", "reduction_indices"},
                                                    {"Transpose", "perm"},
                                                    {"Fill", "dims"},
                                                    {"Reshape", "shape"},
                                                    {"ResourceApplyGradientDescent", "var"}};
  for (const auto& k : reference_kernels()) {
    auto it = host_arg.find(k.op_name);
    if (it == host_arg.end()) {
      EXPECT_TRUE(k.host_memory_args.empty()) << k.op_name;
    } else {
      EXPECT_EQ(k.host_memory_args, std::vector<std::string>{it->second}) << k.op_name;
    }
  }
}

}  // namespace
}  // namespace reference_plugin_test
