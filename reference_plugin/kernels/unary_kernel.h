#pragma once
// y = f(x) element by element: the template behind the unary math ops and the point-wise
// activations. Fn is called with the compute type (float for the 16-bit formats).
#include "kernels/dtypes.h"
#include "kernels/op_kernel.h"

namespace reference_plugin::kernels {

template <typename T, typename Fn>
class UnaryKernel : public OpKernel {
 public:
  UnaryKernel(AttrReader&, Status*) {}

  Status compute(OpContext& ctx) override {
    TensorRef x, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, x.shape(), &y));
    return ctx.enqueue([in = x.data<const T>(), out = y.data<T>(), n = x.num_elements()] {
      for (int64_t i = 0; i < n; ++i) out[i] = narrow<T>(Fn{}(widen(in[i])));
    });
  }
};

}  // namespace reference_plugin::kernels
