// grappler.h, core half. Node lists come from a GrapplerItem; static shape inference is
// graph_properties.cc. Function libraries: function_library.cc.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/graph_properties.h"
#include "core/grappler_item.h"
#include "core/live_handles.h"
#include "core/unimplemented.h"

namespace conformance::core {

std::vector<std::string> GrapplerItem::NodesToPreserve() const {
  std::vector<std::string> out;
  for (const auto* group : {&fetch, &feed, &init_ops, &keep_ops}) {
    for (const auto& name : *group) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  }
  return out;
}

}  // namespace conformance::core

// Only ever created by TF_NewGraphProperties.
struct TF_GraphProperties {
  conformance::core::GraphProperties properties;
};

namespace core = conformance::core;

namespace {

void ListSize(const std::vector<std::string>& nodes, int* num_values, size_t* storage_size,
              TF_Status* status) {
  status->status = core::Status::Ok();
  *num_values = static_cast<int>(nodes.size());
  *storage_size = 0;
  for (const auto& n : nodes) *storage_size += n.size();
}

// Packs names back to back; values[i]/lengths[i] are set before the overflow test.
void List(const char* function, const std::vector<std::string>& nodes, char** values,
          size_t* lengths, int num_values, void* storage, size_t storage_size, TF_Status* status) {
  status->status = core::Status::Ok();
  const int n = std::min(num_values, static_cast<int>(nodes.size()));
  char* p = static_cast<char*>(storage);
  char* const end = static_cast<char*>(storage) + storage_size;
  for (int i = 0; i < n; ++i) {
    const std::string& s = nodes[static_cast<size_t>(i)];
    values[i] = p;
    lengths[i] = s.size();
    if (static_cast<size_t>(end - p) < s.size()) {
      status->status = core::Status::Error(
          TF_INVALID_ARGUMENT, "Not enough storage to hold the requested list of nodes");
      core::RecordCallError(function, "", status->status);
      return;
    }
    // Names are packed back to back, delimited by lengths[i], not by NUL (the ABI's contract).
    std::memcpy(p, s.data(), s.size());  // NOLINT(bugprone-not-null-terminated-result)
    p += s.size();
  }
}

// min(num_values, available) serialized TensorProperties into the caller's buffers; the first
// failing write ends the call with its status, as in TensorFlow.
void WriteProperties(const std::vector<core::TensorProperties>& available, TF_Buffer** out,
                     int num_values, TF_Status* status) {
  status->status = core::Status::Ok();
  const int n = std::min(num_values, static_cast<int>(available.size()));
  for (int i = 0; i < n; ++i) {
    status->status = core::WriteToBuffer(
        core::SerializeTensorProperties(available[static_cast<size_t>(i)]), out[i]);
    if (!status->status.ok()) return;
  }
}

// TensorFlow builds a std::string from the name: NULL throws and aborts the process.
const char* NodeName(const char* function, const char* name) {
  if (name == nullptr) core::Fatal(function, "the node name is NULL");
  return name;
}

}  // namespace

extern "C" {

void TF_GetNodesToPreserveListSize(const TF_GrapplerItem* item, int* num_values,
                                   size_t* storage_size, TF_Status* status) {
  ListSize(core::GrapplerItem::FromC(item)->NodesToPreserve(), num_values, storage_size, status);
}

void TF_GetNodesToPreserveList(const TF_GrapplerItem* item, char** values, size_t* lengths,
                               int num_values, void* storage, size_t storage_size,
                               TF_Status* status) {
  List("TF_GetNodesToPreserveList", core::GrapplerItem::FromC(item)->NodesToPreserve(), values,
       lengths, num_values, storage, storage_size, status);
}

void TF_GetFetchNodesListSize(const TF_GrapplerItem* item, int* num_values, size_t* storage_size,
                              TF_Status* status) {
  ListSize(core::GrapplerItem::FromC(item)->fetch, num_values, storage_size, status);
}

void TF_GetFetchNodesList(const TF_GrapplerItem* item, char** values, size_t* lengths,
                          int num_values, void* storage, size_t storage_size, TF_Status* status) {
  List("TF_GetFetchNodesList", core::GrapplerItem::FromC(item)->fetch, values, lengths, num_values,
       storage, storage_size, status);
}

TF_GraphProperties* TF_NewGraphProperties(const TF_GrapplerItem* item) {
  return new TF_GraphProperties{core::GraphProperties(core::GrapplerItem::FromC(item))};
}

void TF_DeleteGraphProperties(TF_GraphProperties* graph_properties) { delete graph_properties; }

void TF_InferStatically(TF_GraphProperties* graph_properties, TF_Bool assume_valid_feeds,
                        TF_Bool aggressive_shape_inference, TF_Bool include_input_tensor_values,
                        TF_Bool include_output_tensor_values, TF_Status* s) {
  s->status = graph_properties->properties.InferStatically(
      {.assume_valid_feeds = assume_valid_feeds != 0,
       .aggressive_shape_inference = aggressive_shape_inference != 0,
       .include_input_tensor_values = include_input_tensor_values != 0,
       .include_output_tensor_values = include_output_tensor_values != 0});
  if (!s->status.ok()) core::RecordCallError("TF_InferStatically", "", s->status);
}

// As TensorFlow: a node without properties (unknown name, or before TF_InferStatically) has
// none, and that is OK.
void TF_GetInputPropertiesListSize(TF_GraphProperties* graph_properties, const char* name,
                                   int* num_values, TF_Status* status) {
  status->status = core::Status::Ok();
  *num_values = static_cast<int>(
      graph_properties->properties.Inputs(NodeName("TF_GetInputPropertiesListSize", name)).size());
}

void TF_GetOutputPropertiesListSize(TF_GraphProperties* graph_properties, const char* name,
                                    int* num_values, TF_Status* status) {
  status->status = core::Status::Ok();
  *num_values = static_cast<int>(
      graph_properties->properties.Outputs(NodeName("TF_GetOutputPropertiesListSize", name))
          .size());
}

void TF_GetInputPropertiesList(TF_GraphProperties* graph_properties, const char* name,
                               TF_Buffer** properties, int num_values, TF_Status* status) {
  WriteProperties(graph_properties->properties.Inputs(NodeName("TF_GetInputPropertiesList", name)),
                  properties, num_values, status);
}

void TF_GetOutputPropertiesList(TF_GraphProperties* graph_properties, const char* name,
                                TF_Buffer** properties, int num_values, TF_Status* status) {
  WriteProperties(
      graph_properties->properties.Outputs(NodeName("TF_GetOutputPropertiesList", name)),
      properties, num_values, status);
}

}  // extern "C"
