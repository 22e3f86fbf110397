// Conv2D: 2-D convolution (cross-correlation, as TensorFlow defines it) of a 4-D input with a
// filter [filter_height, filter_width, in_channels / groups, out_channels].
//   data_format NHWC (default) or NCHW: the layout of input and output;
//   strides, dilations: 4 values in data_format order, 1 in the batch and channel dims;
//   padding VALID (none), SAME (output = ceil(input / stride), the padding split with the
//   smaller half before), EXPLICIT (explicit_paddings: 8 values, before/after per dim).
// An input with more channels than the filter's in_channels is a grouped convolution.
#include <algorithm>
#include <string>

#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"

namespace reference_plugin::kernels {
namespace {

// Positions of N, H, W, C in a 4-D shape (or attr list) of the given layout.
struct Layout {
  int n = 0, h = 1, w = 2, c = 3;
  static Layout nhwc() { return Layout{0, 1, 2, 3}; }
  static Layout nchw() { return Layout{0, 2, 3, 1}; }
};

enum class Padding { kValid, kSame, kExplicit };

// One spatial dimension of the window: sizes, stride, dilation and the padding before it.
struct Window {
  int64_t input = 0, filter = 0, stride = 1, dilation = 1, output = 0, pad_before = 0;
};

Status compute_window(Padding padding, int64_t explicit_before, int64_t explicit_after, Window* w) {
  const int64_t effective = (w->filter - 1) * w->dilation + 1;
  switch (padding) {
    case Padding::kValid:
      w->output = (w->input - effective + w->stride) / w->stride;
      w->pad_before = 0;
      break;
    case Padding::kSame: {
      w->output = (w->input + w->stride - 1) / w->stride;
      const int64_t needed =
          std::max<int64_t>(0, (w->output - 1) * w->stride + effective - w->input);
      w->pad_before = needed / 2;
      break;
    }
    case Padding::kExplicit:
      w->output = (w->input + explicit_before + explicit_after - effective + w->stride) / w->stride;
      w->pad_before = explicit_before;
      break;
  }
  if (w->output < 0) {
    return invalid_argument("Computed output size would be negative: ", w->output,
                            " [input_size: ", w->input, ", effective_filter_size: ", effective,
                            ", stride: ", w->stride, "]");
  }
  return Status();
}

// Everything the queued computation needs, by value.
struct ConvGeometry {
  Layout layout;
  int64_t batch = 0, in_channels = 0, out_channels = 0, group_in = 0, group_out = 0;
  Window rows, cols;
  Shape input_shape, output_shape;
};

template <typename T>
void convolve(const T* input, const T* filter, T* output, const ConvGeometry& g) {
  using Acc = AccumulatorType<T>;
  const auto in_strides = row_major_strides(g.input_shape);
  const auto out_strides = row_major_strides(g.output_shape);
  const Layout& l = g.layout;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t oy = 0; oy < g.rows.output; ++oy) {
      for (int64_t ox = 0; ox < g.cols.output; ++ox) {
        for (int64_t oc = 0; oc < g.out_channels; ++oc) {
          const int64_t first_in_channel = (oc / g.group_out) * g.group_in;
          Acc sum{0};
          for (int64_t fy = 0; fy < g.rows.filter; ++fy) {
            const int64_t iy = oy * g.rows.stride - g.rows.pad_before + fy * g.rows.dilation;
            if (iy < 0 || iy >= g.rows.input) continue;
            for (int64_t fx = 0; fx < g.cols.filter; ++fx) {
              const int64_t ix = ox * g.cols.stride - g.cols.pad_before + fx * g.cols.dilation;
              if (ix < 0 || ix >= g.cols.input) continue;
              for (int64_t ic = 0; ic < g.group_in; ++ic) {
                const int64_t in_index = b * in_strides[l.n] + iy * in_strides[l.h] +
                                         ix * in_strides[l.w] +
                                         (first_in_channel + ic) * in_strides[l.c];
                const int64_t f_index =
                    ((fy * g.cols.filter + fx) * g.group_in + ic) * g.out_channels + oc;
                sum = wrapping_add(sum, wrapping_mul(static_cast<Acc>(widen(input[in_index])),
                                                     static_cast<Acc>(widen(filter[f_index]))));
              }
            }
          }
          const int64_t out_index = b * out_strides[l.n] + oy * out_strides[l.h] +
                                    ox * out_strides[l.w] + oc * out_strides[l.c];
          output[out_index] = narrow<T>(static_cast<ComputeType<T>>(sum));
        }
      }
    }
  }
}

template <typename T>
class Conv2DKernel : public OpKernel {
 public:
  Conv2DKernel(AttrReader& attrs, Status* status) { *status = read_attrs(attrs); }

  Status compute(OpContext& ctx) override {
    TensorRef input, filter, output;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &input));
    REFERENCE_RETURN_IF_ERROR(ctx.input(1, &filter));
    ConvGeometry g;
    REFERENCE_RETURN_IF_ERROR(geometry(input.shape(), filter.shape(), &g));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, g.output_shape, &output));
    return ctx.enqueue([in = input.data<const T>(), f = filter.data<const T>(),
                        out = output.data<T>(), g] { convolve(in, f, out, g); });
  }

 private:
  Status read_attrs(AttrReader& attrs) {
    std::string format = "NHWC", padding;
    if (attrs.has("data_format")) REFERENCE_RETURN_IF_ERROR(attrs.get("data_format", &format));
    if (format == "NHWC") {
      layout_ = Layout::nhwc();
    } else if (format == "NCHW") {
      layout_ = Layout::nchw();
    } else {
      return invalid_argument("Invalid data format");
    }
    REFERENCE_RETURN_IF_ERROR(attrs.get("strides", &strides_));
    if (strides_.size() != 4) {
      return invalid_argument("Sliding window strides field must specify 4 dimensions");
    }
    if (strides_[layout_.n] != 1 || strides_[layout_.c] != 1) {
      return invalid_argument(
          "Current implementation does not yet support strides in the batch and depth dimensions.");
    }
    if (strides_[layout_.h] <= 0 || strides_[layout_.w] <= 0) {
      return invalid_argument("Row and column strides should be larger than 0.");
    }
    if (attrs.has("dilations")) REFERENCE_RETURN_IF_ERROR(attrs.get("dilations", &dilations_));
    if (dilations_.size() != 4) {
      return invalid_argument("Sliding window dilations field must specify 4 dimensions");
    }
    if (dilations_[layout_.n] != 1 || dilations_[layout_.c] != 1) {
      return invalid_argument(
          "Current implementation does not yet support dilations in the batch and depth "
          "dimensions.");
    }
    if (dilations_[layout_.h] <= 0 || dilations_[layout_.w] <= 0) {
      return invalid_argument("Dilated rates should be larger than 0.");
    }
    REFERENCE_RETURN_IF_ERROR(attrs.get("padding", &padding));
    if (padding == "VALID") {
      padding_ = Padding::kValid;
    } else if (padding == "SAME") {
      padding_ = Padding::kSame;
    } else if (padding == "EXPLICIT") {
      padding_ = Padding::kExplicit;
    } else {
      return invalid_argument("Unknown padding type: ", padding);
    }
    if (attrs.has("explicit_paddings")) {
      REFERENCE_RETURN_IF_ERROR(attrs.get("explicit_paddings", &explicit_paddings_));
    }
    return check_explicit_paddings();
  }

  Status check_explicit_paddings() const {
    if (padding_ != Padding::kExplicit) {
      if (!explicit_paddings_.empty()) {
        return invalid_argument(
            "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
      }
      return Status();
    }
    if (explicit_paddings_.size() != 8) {
      return invalid_argument("explicit_paddings attribute must contain 8 values, but got: ",
                              explicit_paddings_.size());
    }
    for (int64_t p : explicit_paddings_) {
      if (p < 0) {
        return invalid_argument("All explicit padding values must be nonnegative, got ",
                                shape_string(explicit_paddings_));
      }
    }
    const auto pad = [&](int dim, int side) { return explicit_paddings_[2 * dim + side]; };
    if (pad(layout_.n, 0) != 0 || pad(layout_.n, 1) != 0 || pad(layout_.c, 0) != 0 ||
        pad(layout_.c, 1) != 0) {
      return invalid_argument(
          "Nonzero explicit padding in the batch or depth dimensions is not supported");
    }
    return Status();
  }

  Status geometry(const Shape& input, const Shape& filter, ConvGeometry* g) const {
    if (input.size() != 4)
      return invalid_argument("convolution input must be 4-dimensional: ", shape_string(input));
    if (filter.size() != 4) {
      return invalid_argument("convolution filter must be 4-dimensional: ", shape_string(filter));
    }
    const Layout& l = layout_;
    g->layout = l;
    g->batch = input[l.n];
    g->in_channels = input[l.c];
    g->group_in = filter[2];
    g->out_channels = filter[3];
    if (num_elements(filter) == 0) {
      return invalid_argument(
          "filter must not have zero elements (i.e. all dimensions must be non-zero)");
    }
    if (g->in_channels % g->group_in != 0) {
      return invalid_argument("input depth must be evenly divisible by filter depth: ",
                              g->in_channels, " vs ", g->group_in);
    }
    const int64_t groups = g->in_channels / g->group_in;
    if (groups == 0 || g->out_channels % groups != 0) {
      return invalid_argument("output depth must be evenly divisible by number of groups: ",
                              g->out_channels, " vs ", groups);
    }
    g->group_out = g->out_channels / groups;
    g->rows = Window{input[l.h], filter[0], strides_[l.h], dilations_[l.h], 0, 0};
    g->cols = Window{input[l.w], filter[1], strides_[l.w], dilations_[l.w], 0, 0};
    const auto pad = [&](int dim, int side) {
      return padding_ == Padding::kExplicit ? explicit_paddings_[2 * dim + side] : 0;
    };
    REFERENCE_RETURN_IF_ERROR(compute_window(padding_, pad(l.h, 0), pad(l.h, 1), &g->rows));
    REFERENCE_RETURN_IF_ERROR(compute_window(padding_, pad(l.w, 0), pad(l.w, 1), &g->cols));
    g->input_shape = input;
    g->output_shape = Shape(4);
    g->output_shape[l.n] = g->batch;
    g->output_shape[l.h] = g->rows.output;
    g->output_shape[l.w] = g->cols.output;
    g->output_shape[l.c] = g->out_channels;
    return Status();
  }

  Layout layout_;
  Padding padding_ = Padding::kValid;
  std::vector<int64_t> strides_, dilations_{1, 1, 1, 1}, explicit_paddings_;
};

}  // namespace

Status register_conv2d_kernels() {
  return register_for_types<Conv2DKernel>("Conv2D",
                                          TypeList<float, Half, BFloat16, double, int32_t>{});
}

}  // namespace reference_plugin::kernels
