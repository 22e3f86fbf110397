#pragma once
// Shapes as the kernels handle them, and TensorFlow's way of printing one ("[2,3]", "[]").
#include <cstdint>
#include <string>
#include <vector>

namespace reference_plugin::kernels {

using Shape = std::vector<int64_t>;

std::string shape_string(const Shape& shape);
// The values with commas between them, as TensorFlow's messages list attrs: "1,2,2,1".
std::string comma_separated(const std::vector<int64_t>& values);
int64_t num_elements(const Shape& shape);  // 1 for a scalar

// Row-major strides in elements: strides[i] is the distance between neighbours along dim i.
std::vector<int64_t> row_major_strides(const Shape& shape);

}  // namespace reference_plugin::kernels
