#pragma once
// The output size of one spatial dimension of a convolution, and the padding before it, from a
// kernel's attrs (strides, dilations, padding, explicit_paddings: any struct holding them, as
// edge_value_kernels.cc's Conv2D and type_list_kernels.cc's _FusedConv2D do).
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kernel_plugin {

template <typename ConvAttrs>
void SpatialSize(const ConvAttrs& a, int dim, int64_t in, int64_t taps, int64_t* out,
                 int64_t* pad_before) {
  const int64_t stride = a.strides[dim], span = (taps - 1) * a.dilations[dim] + 1;
  if (a.padding == "SAME") {
    *out = (in + stride - 1) / stride;
    *pad_before = std::max<int64_t>((*out - 1) * stride + span - in, 0) / 2;
  } else if (a.padding == "EXPLICIT") {
    const std::size_t before = 2 * static_cast<std::size_t>(dim);
    *pad_before = a.explicit_paddings[before];
    *out = (in + a.explicit_paddings[before] + a.explicit_paddings[before + 1] - span) / stride + 1;
  } else {
    *pad_before = 0;
    *out = (in - span) / stride + 1;
  }
}

}  // namespace kernel_plugin
