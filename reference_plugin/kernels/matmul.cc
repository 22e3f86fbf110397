// MatMul (transpose_a, transpose_b) and BatchMatMulV2 (adj_x, adj_y; the batch dimensions
// broadcast). For the real types the reference supports, the adjoint is the transpose.
// Dot products accumulate in double (floats) or wrap around (integers), then round once.
#include <string>
#include <type_traits>

#include "kernels/broadcast.h"
#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

// The geometry of c[m,n] = op(a) * op(b), op being "transposed or not".
struct MatMulShape {
  int64_t m = 0, n = 0, k = 0;
  bool transpose_a = false, transpose_b = false;
};

// One matrix product; a, b, c point at the first element of their matrices.
template <typename T>
void multiply_matrices(const T* a, const T* b, T* c, const MatMulShape& s) {
  using Acc = AccumulatorType<T>;
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      Acc sum{0};
      for (int64_t p = 0; p < s.k; ++p) {
        const T a_ip = s.transpose_a ? a[p * s.m + i] : a[i * s.k + p];
        const T b_pj = s.transpose_b ? b[j * s.k + p] : b[p * s.n + j];
        sum = wrapping_add(
            sum, wrapping_mul(static_cast<Acc>(widen(a_ip)), static_cast<Acc>(widen(b_pj))));
      }
      c[i * s.n + j] = narrow<T>(static_cast<ComputeType<T>>(sum));
    }
  }
}

// Reads the row/column counts of the last two dimensions of a and b and checks that the
// contracted dimensions agree.
Status matmul_shape(const Shape& a, const Shape& b, bool transpose_a, bool transpose_b,
                    MatMulShape* out) {
  const int64_t a_rows = a[a.size() - 2], a_cols = a[a.size() - 1];
  const int64_t b_rows = b[b.size() - 2], b_cols = b[b.size() - 1];
  const int64_t k_a = transpose_a ? a_rows : a_cols;
  const int64_t k_b = transpose_b ? b_cols : b_rows;
  if (k_a != k_b) {
    return invalid_argument("Matrix size-incompatible: In[0]: ", shape_string(a),
                            ", In[1]: ", shape_string(b));
  }
  *out = MatMulShape{transpose_a ? a_cols : a_rows, transpose_b ? b_rows : b_cols, k_a, transpose_a,
                     transpose_b};
  return Status();
}

template <typename T>
class MatMulKernel : public OpKernel {
 public:
  MatMulKernel(AttrReader& attrs, Status* status) {
    *status = attrs.get("transpose_a", &transpose_a_);
    if (status->ok()) *status = attrs.get("transpose_b", &transpose_b_);
  }

  Status compute(OpContext& ctx) override {
    TensorRef a, b, c;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &a));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &b));
    if (a.dims() != 2) {
      return invalid_argument("In[0] is not a matrix. Instead it has shape ",
                              shape_string(a.shape()));
    }
    if (b.dims() != 2) {
      return invalid_argument("In[1] is not a matrix. Instead it has shape ",
                              shape_string(b.shape()));
    }
    MatMulShape s;
    REFERENCE_RETURN_IF_ERROR(matmul_shape(a.shape(), b.shape(), transpose_a_, transpose_b_, &s));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, {s.m, s.n}, &c));
    return ctx.enqueue([x = a.data<const T>(), y = b.data<const T>(), z = c.data<T>(), s] {
      multiply_matrices(x, y, z, s);
    });
  }

 private:
  bool transpose_a_ = false, transpose_b_ = false;
};

template <typename T>
class BatchMatMulV2Kernel : public OpKernel {
 public:
  BatchMatMulV2Kernel(AttrReader& attrs, Status* status) {
    *status = attrs.get("adj_x", &adj_x_);
    if (status->ok()) *status = attrs.get("adj_y", &adj_y_);
  }

  Status compute(OpContext& ctx) override {
    TensorRef x, y, z;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &y));
    if (x.dims() < 2) return invalid_argument("In[0] ndims must be >= 2: ", x.dims());
    if (y.dims() < 2) return invalid_argument("In[1] ndims must be >= 2: ", y.dims());
    const Shape xs = x.shape(), ys = y.shape();
    const Shape x_batch(xs.begin(), xs.end() - 2), y_batch(ys.begin(), ys.end() - 2);
    BroadcastIndex batches;
    if (!BroadcastIndex::make(x_batch, y_batch, &batches).ok()) {
      return invalid_argument("In[0] and In[1] must have compatible batch dimensions: ",
                              shape_string(xs), " vs. ", shape_string(ys));
    }
    MatMulShape s;
    REFERENCE_RETURN_IF_ERROR(matmul_shape(xs, ys, adj_x_, adj_y_, &s));
    Shape out_shape = batches.output_shape();
    out_shape.push_back(s.m);
    out_shape.push_back(s.n);
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, out_shape, &z));
    return ctx.enqueue([a = x.data<const T>(), b = y.data<const T>(), c = z.data<T>(), s, batches] {
      const int64_t a_size = s.m * s.k, b_size = s.k * s.n, c_size = s.m * s.n;
      batches.for_each([&](int64_t out, int64_t ai, int64_t bi) {
        multiply_matrices(a + ai * a_size, b + bi * b_size, c + out * c_size, s);
      });
    });
  }

 private:
  bool adj_x_ = false, adj_y_ = false;
};

}  // namespace

Status register_matmul_kernels() {
  Status first;
  keep_first_error(first, register_for_types<MatMulKernel>("MatMul", NumericTypes{}));
  keep_first_error(first, register_for_types<BatchMatMulV2Kernel>("BatchMatMulV2", NumericTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
