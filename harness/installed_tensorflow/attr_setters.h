#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {

// The eager kernel cases (TFE_OpSetAttr*) and the model graphs (TF_SetAttr*) both set attrs that
// kernels::AttrJson wrote as {kind: value}. The two C API families take the same arguments after
// their handle, so one decoder serves both through a table of the family's setters.
template <typename Handle>
struct AttrSetters {
  void (*type)(Handle*, const char*, TfDataType);
  void (*int_value)(Handle*, const char*, int64_t);
  void (*float_value)(Handle*, const char*, float);
  void (*bool_value)(Handle*, const char*, unsigned char);
  void (*string)(Handle*, const char*, const void*, size_t);
  void (*int_list)(Handle*, const char*, const int64_t*, int);
  void (*float_list)(Handle*, const char*, const float*, int);
  void (*string_list)(Handle*, const char*, const void* const*, const size_t*, int);
  void (*type_list)(Handle*, const char*, const TfDataType*, int);
  // A shape of known rank (ParallelConcat's): TFE_OpSetAttrShape takes a status and
  // TF_SetAttrShape none, so each family gives a wrapper.
  std::function<void(Handle*, const char*, const int64_t*, int)> shape;
};

template <typename Handle>
void SetAttrJson(const AttrSetters<Handle>& set, Handle* target, const std::string& name,
                 const nlohmann::json& value) {
  if (!value.is_object() || value.empty()) throw std::invalid_argument("attr " + name);
  const std::string kind = value.begin().key();
  const nlohmann::json& item = value.begin().value();
  const char* attr = name.c_str();
  if (kind == "type") {
    set.type(target, attr, item.get<int>());
  } else if (kind == "i") {
    set.int_value(target, attr, item.get<int64_t>());
  } else if (kind == "f") {
    set.float_value(target, attr, item.get<float>());
  } else if (kind == "b") {
    set.bool_value(target, attr, item.get<bool>() ? 1 : 0);
  } else if (kind == "s") {
    const auto text = item.get<std::string>();
    set.string(target, attr, text.data(), text.size());
  } else if (kind == "list_i") {
    const auto values = item.get<std::vector<int64_t>>();
    set.int_list(target, attr, values.data(), static_cast<int>(values.size()));
  } else if (kind == "shape") {
    const auto dims = item.get<std::vector<int64_t>>();
    set.shape(target, attr, dims.data(), static_cast<int>(dims.size()));
  } else if (kind == "list_f") {
    const auto values = item.get<std::vector<float>>();
    set.float_list(target, attr, values.data(), static_cast<int>(values.size()));
  } else if (kind == "list_s") {
    const auto values = item.get<std::vector<std::string>>();
    std::vector<const void*> data;
    std::vector<size_t> lengths;
    for (const std::string& text : values) {
      data.push_back(text.data());
      lengths.push_back(text.size());
    }
    set.string_list(target, attr, data.data(), lengths.data(), static_cast<int>(values.size()));
  } else if (kind == "list_type") {  // a type list (_FusedConv2D's TArgs)
    const auto values = item.get<std::vector<TfDataType>>();
    set.type_list(target, attr, values.data(), static_cast<int>(values.size()));
  } else {
    throw std::invalid_argument("attr " + name + " of kind " + kind);
  }
}

}  // namespace tensorflow_driver
