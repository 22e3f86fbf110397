#pragma once
// A convolution's geometry attrs (strides, dilations, padding, explicit_paddings), read once for
// the Conv2D of edge_value_kernels.cc, the _FusedConv2D of type_list_kernels.cc and the kernels
// whose only state it is (standin_kernels.cc, mkl_layout_kernels.cc), and the
// output size of one spatial dimension with the padding before it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tensorflow/c/kernels.h"

namespace kernel_plugin {

struct ConvGeometry {
  int64_t strides[4] = {1, 1, 1, 1}, dilations[4] = {1, 1, 1, 1}, explicit_paddings[8] = {};
  std::string padding;
};

inline void ReadConvGeometry(TF_OpKernelConstruction* construction, ConvGeometry* geometry,
                             TF_Status* status) {
  TF_OpKernelConstruction_GetAttrInt64List(construction, "strides", geometry->strides, 4, status);
  TF_OpKernelConstruction_GetAttrInt64List(construction, "dilations", geometry->dilations, 4,
                                           status);
  TF_OpKernelConstruction_GetAttrInt64List(construction, "explicit_paddings",
                                           geometry->explicit_paddings, 8, status);
  char padding[16] = {};
  TF_OpKernelConstruction_GetAttrString(construction, "padding", padding, sizeof padding - 1,
                                        status);
  geometry->padding = padding;
}

// A kernel whose only state is its geometry: create_func and delete_func of its builder.
inline void* CreateConvGeometry(TF_OpKernelConstruction* construction) {
  auto* geometry = new ConvGeometry;
  TF_Status* status = TF_NewStatus();
  ReadConvGeometry(construction, geometry, status);
  TF_DeleteStatus(status);
  return geometry;
}
inline void DeleteConvGeometry(void* kernel) { delete static_cast<ConvGeometry*>(kernel); }

inline void SpatialSize(const ConvGeometry& a, int dim, int64_t in, int64_t taps, int64_t* out,
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
