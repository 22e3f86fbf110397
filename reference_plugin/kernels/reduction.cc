// Sum, Mean, Max over the axes in reduction_indices (a scalar or vector of int32/int64 in host
// memory: the output shape depends on its values). Negative axes count from the end;
// keep_dims keeps the reduced dimensions with size 1. Floating sums accumulate in double.
// Max propagates NaN; the max of nothing is -inf (floats) or the lowest value (integers), the
// mean of nothing is NaN (floats) or 0 (integers).
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

template <typename T>
struct SumReducer {
  using Acc = AccumulatorType<T>;
  static Acc init() { return Acc{0}; }
  static Acc combine(Acc acc, T x) { return wrapping_add(acc, static_cast<Acc>(widen(x))); }
  static T finish(Acc acc, int64_t) { return narrow<T>(static_cast<ComputeType<T>>(acc)); }
};

template <typename T>
struct MeanReducer : SumReducer<T> {
  using Acc = AccumulatorType<T>;
  static T finish(Acc acc, int64_t count) {
    if constexpr (std::is_integral_v<T>) {
      return count == 0 ? T{0} : static_cast<T>(acc / count);
    } else {
      return narrow<T>(static_cast<ComputeType<T>>(acc / static_cast<double>(count)));
    }
  }
};

template <typename T>
struct MaxReducer {
  using Acc = ComputeType<T>;
  static Acc init() {
    if constexpr (std::is_integral_v<Acc>) {
      return std::numeric_limits<Acc>::lowest();
    } else {
      return -std::numeric_limits<Acc>::infinity();
    }
  }
  static Acc combine(Acc acc, T x) {
    const Acc v = widen(x);
    if constexpr (!std::is_integral_v<Acc>) {
      if (std::isnan(acc) || std::isnan(v)) return std::numeric_limits<Acc>::quiet_NaN();
    }
    return acc < v ? v : acc;
  }
  static T finish(Acc acc, int64_t) { return narrow<T>(acc); }
};

// Which dimensions are reduced, and the resulting shapes.
struct ReductionPlan {
  Shape input_shape, output_shape;
  std::vector<bool> reduced;
  int64_t count = 1;  // elements folded into each output element
};

template <typename Tidx>
Status plan_reduction(const Shape& input, const TensorRef& axes, bool keep_dims,
                      ReductionPlan* plan) {
  const auto rank = static_cast<int64_t>(input.size());
  plan->input_shape = input;
  plan->reduced.assign(input.size(), false);
  const Tidx* values = axes.data<const Tidx>();
  for (int64_t i = 0; i < axes.num_elements(); ++i) {
    const auto axis = static_cast<int64_t>(values[i]);
    if (axis < -rank || axis >= rank) {
      return invalid_argument("Invalid reduction dimension (", axis, " for input with ", rank,
                              " dimension(s)");
    }
    const auto d = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    if (plan->reduced[d]) {
      return invalid_argument("Invalid reduction arguments: Axes contains duplicate dimension: ",
                              d);
    }
    plan->reduced[d] = true;
  }
  for (std::size_t d = 0; d < input.size(); ++d) {
    if (plan->reduced[d]) {
      plan->count *= input[d];
      if (keep_dims) plan->output_shape.push_back(1);
    } else {
      plan->output_shape.push_back(input[d]);
    }
  }
  return Status();
}

template <typename T, typename Reducer>
void reduce(const T* in, T* out, const ReductionPlan& plan) {
  using Acc = typename Reducer::Acc;
  const Shape& shape = plan.input_shape;
  // For each input dimension, how far the output index moves per step (0 when reduced).
  std::vector<int64_t> kept_shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (!plan.reduced[d]) kept_shape.push_back(shape[d]);
  }
  const std::vector<int64_t> kept_strides = row_major_strides(kept_shape);
  std::vector<int64_t> out_step(shape.size(), 0);
  for (std::size_t d = 0, k = 0; d < shape.size(); ++d) {
    if (!plan.reduced[d]) out_step[d] = kept_strides[k++];
  }
  std::vector<Acc> acc(static_cast<std::size_t>(num_elements(kept_shape)), Reducer::init());
  std::vector<int64_t> coordinate(shape.size(), 0);
  int64_t o = 0;
  const int64_t total = num_elements(shape);
  for (int64_t i = 0; i < total; ++i) {
    acc[static_cast<std::size_t>(o)] = Reducer::combine(acc[static_cast<std::size_t>(o)], in[i]);
    for (std::size_t d = shape.size(); d-- > 0;) {
      o += out_step[d];
      if (++coordinate[d] < shape[d]) break;
      o -= out_step[d] * shape[d];
      coordinate[d] = 0;
    }
  }
  for (std::size_t j = 0; j < acc.size(); ++j) out[j] = Reducer::finish(acc[j], plan.count);
}

template <typename T, typename Tidx, typename Reducer>
class ReductionKernel : public OpKernel {
 public:
  ReductionKernel(AttrReader& attrs, Status* status) {
    if (attrs.has("keep_dims")) *status = attrs.get("keep_dims", &keep_dims_);
  }

  Status compute(OpContext& ctx) override {
    TensorRef input, axes, output;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &input));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &axes));  // host memory: read now
    if (axes.dims() > 1) {
      return invalid_argument("reduction_indices must be a scalar or a vector, got ",
                              shape_string(axes.shape()));
    }
    ReductionPlan plan;
    REFERENCE_RETURN_IF_ERROR(plan_reduction<Tidx>(input.shape(), axes, keep_dims_, &plan));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, plan.output_shape, &output));
    return ctx.enqueue([in = input.data<const T>(), out = output.data<T>(), plan] {
      reduce<T, Reducer>(in, out, plan);
    });
  }

 private:
  bool keep_dims_ = false;
};

template <typename T, typename Tidx>
using SumKernel = ReductionKernel<T, Tidx, SumReducer<T>>;
template <typename T, typename Tidx>
using MeanKernel = ReductionKernel<T, Tidx, MeanReducer<T>>;
template <typename T, typename Tidx>
using MaxKernel = ReductionKernel<T, Tidx, MaxReducer<T>>;

}  // namespace

Status register_reduction_kernels() {
  Status first;
  keep_first_error(
      first, register_for_type_pairs<SumKernel>("Sum", NumericTypes{}, "T", IndexTypes{}, "Tidx",
                                                {"reduction_indices"}));
  keep_first_error(
      first, register_for_type_pairs<MeanKernel>("Mean", NumericTypes{}, "T", IndexTypes{}, "Tidx",
                                                 {"reduction_indices"}));
  keep_first_error(
      first, register_for_type_pairs<MaxKernel>("Max", NumericTypes{}, "T", IndexTypes{}, "Tidx",
                                                {"reduction_indices"}));
  return first;
}

}  // namespace reference_plugin::kernels
