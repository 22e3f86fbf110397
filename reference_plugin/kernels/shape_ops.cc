// Ops that move or produce data without arithmetic: Identity, Transpose, Fill, ZerosLike.
#include <string>
#include <vector>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

// Identity forwards its input as its output: no copy and no device work, as in TensorFlow.
template <typename T>
class IdentityKernel : public OpKernel {
 public:
  IdentityKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef x;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    return ctx.set_output(0, x);
  }
};

// Transpose: output dimension i is input dimension perm[i]. perm is in host memory.
template <typename T, typename Tperm>
class TransposeKernel : public OpKernel {
 public:
  TransposeKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef x, perm_tensor, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &perm_tensor));
    if (perm_tensor.dims() != 1) {
      return invalid_argument("perm must be a vector, not ", shape_string(perm_tensor.shape()));
    }
    const int rank = x.dims();
    std::vector<int64_t> perm(static_cast<std::size_t>(perm_tensor.num_elements()));
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = perm_tensor.data<const Tperm>()[i];
    if (static_cast<int64_t>(perm.size()) != rank) {
      return invalid_argument("transpose expects a vector of size ", rank,
                              ". But input(1) is a vector of size ", perm.size());
    }
    std::vector<bool> seen(perm.size(), false);
    for (int64_t d : perm) {
      if (d < 0 || d >= rank) return invalid_argument(d, " is out of range [0 .. ", rank, ")");
      seen[static_cast<std::size_t>(d)] = true;
    }
    for (int i = 0; i < rank; ++i) {
      if (!seen[static_cast<std::size_t>(i)]) {
        return invalid_argument(i, " is missing from {", comma_separated(perm), "}.");
      }
    }
    const Shape in_shape = x.shape();
    Shape out_shape(perm.size());
    for (std::size_t i = 0; i < perm.size(); ++i)
      out_shape[i] = in_shape[static_cast<std::size_t>(perm[i])];
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, out_shape, &y));
    // Walking the output in order, the input index moves by in_strides[perm[d]] along d.
    const std::vector<int64_t> in_strides = row_major_strides(in_shape);
    std::vector<int64_t> steps(perm.size());
    for (std::size_t d = 0; d < perm.size(); ++d)
      steps[d] = in_strides[static_cast<std::size_t>(perm[d])];
    return ctx.enqueue([in = x.data<const T>(), out = y.data<T>(), out_shape, steps] {
      const int64_t total = num_elements(out_shape);
      std::vector<int64_t> coordinate(out_shape.size(), 0);
      int64_t i = 0;
      for (int64_t o = 0; o < total; ++o) {
        out[o] = in[i];
        for (std::size_t d = out_shape.size(); d-- > 0;) {
          i += steps[d];
          if (++coordinate[d] < out_shape[d]) break;
          i -= steps[d] * out_shape[d];
          coordinate[d] = 0;
        }
      }
    });
  }
};

// Fill: a tensor of shape `dims` (host memory) with every element equal to `value` (a scalar
// in device memory: it is read on the stream, where its copy has landed).
template <typename T, typename Tindex>
class FillKernel : public OpKernel {
 public:
  FillKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef dims, value, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &dims));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &value));
    if (dims.dims() != 1) {
      return invalid_argument("dims must be a vector, got shape ", shape_string(dims.shape()));
    }
    if (value.dims() != 0) {
      return invalid_argument("value must be a scalar, got shape ", shape_string(value.shape()));
    }
    Shape shape(static_cast<std::size_t>(dims.num_elements()));
    for (std::size_t i = 0; i < shape.size(); ++i) {
      shape[i] = dims.data<const Tindex>()[i];
      if (shape[i] < 0) return invalid_argument("Dimension ", shape[i], " must be >= 0");
    }
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, shape, &y));
    return ctx.enqueue([v = value.data<const T>(), out = y.data<T>(), n = num_elements(shape)] {
      for (int64_t i = 0; i < n; ++i) out[i] = *v;
    });
  }
};

template <typename T>
class ZerosLikeKernel : public OpKernel {
 public:
  ZerosLikeKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef x, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, x.shape(), &y));
    return ctx.enqueue([out = y.data<T>(), n = x.num_elements()] {
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<T>(ComputeType<T>{0});
    });
  }
};

}  // namespace

Status register_shape_op_kernels() {
  Status first;
  keep_first_error(first, register_for_types<IdentityKernel>("Identity", AllTypes{}));
  keep_first_error(first, register_for_type_pairs<TransposeKernel>(
                              "Transpose", AllTypes{}, "T", IndexTypes{}, "Tperm", {"perm"}));
  keep_first_error(first, register_for_type_pairs<FillKernel>("Fill", AllTypes{}, "T", IndexTypes{},
                                                              "index_type", {"dims"}));
  keep_first_error(first, register_for_types<ZerosLikeKernel>("ZerosLike", AllTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
