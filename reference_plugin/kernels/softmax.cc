// Softmax and LogSoftmax over the last dimension:
//   softmax(x)_i     = exp(x_i - max(x)) / sum_j exp(x_j - max(x))
//   log_softmax(x)_i = (x_i - max(x)) - log(sum_j exp(x_j - max(x)))
// Subtracting the row maximum keeps exp from overflowing. Rows are computed in double and
// rounded once.
#include <cmath>
#include <limits>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

template <typename T, bool kLog>
class SoftmaxKernel : public OpKernel {
 public:
  SoftmaxKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef logits, out;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &logits));
    if (logits.dims() < 1) {
      return invalid_argument("logits must have >= 1 dimension, got ",
                              shape_string(logits.shape()));
    }
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, logits.shape(), &out));
    const int64_t depth = logits.dim(logits.dims() - 1);
    const int64_t rows = depth == 0 ? 0 : logits.num_elements() / depth;
    return ctx.enqueue([in = logits.data<const T>(), y = out.data<T>(), rows, depth] {
      for (int64_t r = 0; r < rows; ++r) softmax_row(in + r * depth, y + r * depth, depth);
    });
  }

 private:
  static void softmax_row(const T* x, T* y, int64_t depth) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < depth; ++i) max = std::fmax(max, static_cast<double>(widen(x[i])));
    double sum = 0;
    for (int64_t i = 0; i < depth; ++i) sum += std::exp(static_cast<double>(widen(x[i])) - max);
    for (int64_t i = 0; i < depth; ++i) {
      const double shifted = static_cast<double>(widen(x[i])) - max;
      const double value = kLog ? shifted - std::log(sum) : std::exp(shifted) / sum;
      y[i] = narrow<T>(static_cast<ComputeType<T>>(value));
    }
  }
};

template <typename T>
using Softmax = SoftmaxKernel<T, false>;
template <typename T>
using LogSoftmax = SoftmaxKernel<T, true>;

}  // namespace

Status register_softmax_kernels() {
  Status first;
  keep_first_error(first, register_for_types<Softmax>("Softmax", FloatTypes{}));
  keep_first_error(first, register_for_types<LogSoftmax>("LogSoftmax", FloatTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
