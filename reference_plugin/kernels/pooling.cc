// MaxPool and AvgPool: the maximum or the mean of each ksize window of a 4-D NHWC input, the
// window moved by strides. Windows cover one image and one channel (ksize and strides are 1 in
// the batch and channel dimensions). Padding VALID (none), SAME (output = ceil(input / stride),
// the padding split with the smaller half before) or, for MaxPool, EXPLICIT (explicit_paddings:
// 8 values, before/after per dim). Padded positions take no part: they never win a maximum and
// are not counted in a mean, as in TensorFlow.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

enum class PoolMode { kMax, kAverage };

// One spatial dimension: input and window sizes, stride, output size and padding before.
struct PoolWindow {
  int64_t input = 0, size = 1, stride = 1, output = 0, pad_before = 0;
};

struct PoolGeometry {
  int64_t batch = 0, channels = 0;
  PoolWindow rows, cols;
};

// The attrs every pooling kernel reads, checked as TensorFlow's pooling kernels check them.
struct PoolAttrs {
  std::vector<int64_t> ksize, strides, explicit_paddings;
  std::string padding;

  Status read(AttrReader& attrs, const char* op) {
    std::string format = "NHWC";
    if (attrs.has("data_format")) REFERENCE_RETURN_IF_ERROR(attrs.get("data_format", &format));
    // The simulated device has one layout; TensorFlow's CPU kernels refuse NCHW the same way.
    if (format != "NHWC") {
      return invalid_argument("The reference plugin's ", op, " supports only NHWC, not ", format);
    }
    REFERENCE_RETURN_IF_ERROR(attrs.get("ksize", &ksize));
    if (ksize.size() != 4)
      return invalid_argument("Sliding window ksize field must specify 4 dimensions");
    REFERENCE_RETURN_IF_ERROR(attrs.get("strides", &strides));
    if (strides.size() != 4)
      return invalid_argument("Sliding window stride field must specify 4 dimensions");
    REFERENCE_RETURN_IF_ERROR(attrs.get("padding", &padding));
    if (padding == "EXPLICIT") {
      REFERENCE_RETURN_IF_ERROR(attrs.get("explicit_paddings", &explicit_paddings));
      if (explicit_paddings.size() != 8) {
        return invalid_argument("explicit_paddings attribute must contain 8 values, but got: ",
                                explicit_paddings.size());
      }
    }
    if (ksize[0] != 1 || strides[0] != 1)
      return unimplemented("Pooling is not yet supported on the batch dimension.");
    for (int64_t k : ksize) {
      if (k <= 0) {
        return invalid_argument(
            "Sliding window ksize must be positive. The specified or inferred ksize is: ",
            comma_separated(ksize));
      }
    }
    for (int64_t s : strides)
      if (s <= 0) return invalid_argument("Stride must be > 0, but got ", s);
    if (ksize[3] != 1 || strides[3] != 1) {
      return unimplemented("The reference plugin's ", op, " does not pool across channels");
    }
    return Status();
  }
};

Status compute_window(const PoolAttrs& attrs, int dim, PoolWindow* w) {
  w->size = attrs.ksize[static_cast<std::size_t>(dim)];
  w->stride = attrs.strides[static_cast<std::size_t>(dim)];
  if (attrs.padding == "VALID") {
    w->output = (w->input - w->size + w->stride) / w->stride;
  } else if (attrs.padding == "SAME") {
    w->output = (w->input + w->stride - 1) / w->stride;
    w->pad_before = std::max<int64_t>(0, (w->output - 1) * w->stride + w->size - w->input) / 2;
  } else {  // EXPLICIT
    const int64_t before = attrs.explicit_paddings[2 * static_cast<std::size_t>(dim)];
    const int64_t after = attrs.explicit_paddings[2 * static_cast<std::size_t>(dim) + 1];
    if (before < 0 || after < 0)
      return invalid_argument("All explicit paddings must be non-negative");
    w->output = (w->input + before + after - w->size + w->stride) / w->stride;
    w->pad_before = before;
  }
  if (w->output < 0) {
    return invalid_argument("Computed output size would be negative: ", w->output,
                            " [input_size: ", w->input, ", effective_filter_size: ", w->size,
                            ", stride: ", w->stride, "]");
  }
  return Status();
}

// The first and one-past-last input index a window starting at `start` covers inside the input.
struct Span {
  int64_t begin, end;
};
Span clip(const PoolWindow& w, int64_t out) {
  const int64_t start = out * w.stride - w.pad_before;
  return {std::max<int64_t>(start, 0), std::min(start + w.size, w.input)};
}

template <typename T, PoolMode Mode>
void pool(const T* in, T* out, const PoolGeometry& g) {
  using Compute = ComputeType<T>;
  const int64_t c = g.channels;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t oy = 0; oy < g.rows.output; ++oy) {
      const Span ys = clip(g.rows, oy);
      for (int64_t ox = 0; ox < g.cols.output; ++ox) {
        const Span xs = clip(g.cols, ox);
        for (int64_t ch = 0; ch < c; ++ch) {
          Compute best = std::numeric_limits<Compute>::lowest();
          AccumulatorType<T> sum{0};
          for (int64_t y = ys.begin; y < ys.end; ++y) {
            for (int64_t x = xs.begin; x < xs.end; ++x) {
              const Compute v = widen(in[((b * g.rows.input + y) * g.cols.input + x) * c + ch]);
              if constexpr (Mode == PoolMode::kMax) {
                best = std::max(best, v);
              } else {
                sum += v;
              }
            }
          }
          const int64_t o = ((b * g.rows.output + oy) * g.cols.output + ox) * c + ch;
          if constexpr (Mode == PoolMode::kMax) {
            out[o] = narrow<T>(best);
          } else {
            const auto count = static_cast<double>((ys.end - ys.begin) * (xs.end - xs.begin));
            out[o] = narrow<T>(static_cast<Compute>(static_cast<double>(sum) / count));
          }
        }
      }
    }
  }
}

template <typename T, PoolMode Mode>
class PoolKernel : public OpKernel {
 public:
  PoolKernel(AttrReader& attrs, Status* status) {
    *status = attrs_.read(attrs, Mode == PoolMode::kMax ? "MaxPool" : "AvgPool");
  }

  Status compute(OpContext& ctx) override {
    TensorRef input, output;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &input));
    if (input.dims() != 4) return invalid_argument("Input must be 4 or 5-dimensional");
    PoolGeometry g;
    g.batch = input.dim(0);
    g.rows.input = input.dim(1);
    g.cols.input = input.dim(2);
    g.channels = input.dim(3);
    REFERENCE_RETURN_IF_ERROR(compute_window(attrs_, 1, &g.rows));
    REFERENCE_RETURN_IF_ERROR(compute_window(attrs_, 2, &g.cols));
    const Shape out_shape{g.batch, g.rows.output, g.cols.output, g.channels};
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, out_shape, &output));
    if (num_elements(out_shape) == 0) return Status();
    return ctx.enqueue(
        [in = input.data<const T>(), out = output.data<T>(), g] { pool<T, Mode>(in, out, g); });
  }

 private:
  PoolAttrs attrs_;
};

template <typename T>
using MaxPoolKernel = PoolKernel<T, PoolMode::kMax>;
template <typename T>
using AvgPoolKernel = PoolKernel<T, PoolMode::kAverage>;

}  // namespace

Status register_pooling_kernels() {
  Status first;
  keep_first_error(first, register_for_types<MaxPoolKernel>("MaxPool", NumericTypes{}));
  keep_first_error(first, register_for_types<AvgPoolKernel>("AvgPool", FloatTypes{}));
  return first;
}

}  // namespace reference_plugin::kernels
