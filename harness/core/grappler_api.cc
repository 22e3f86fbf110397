// grappler.h, core half. Node lists come from a GrapplerItem; static shape inference needs
// TensorFlow's graph runtime and is UNIMPLEMENTED (named). Function libraries:
// function_library.cc.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

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
  const conformance::core::GrapplerItem* item;
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
  return new TF_GraphProperties{core::GrapplerItem::FromC(item)};
}

void TF_DeleteGraphProperties(TF_GraphProperties* graph_properties) { delete graph_properties; }

void TF_InferStatically(TF_GraphProperties*, TF_Bool, TF_Bool, TF_Bool, TF_Bool, TF_Status* s) {
  s->status = core::Unimplemented("TF_InferStatically");
}

void TF_GetInputPropertiesListSize(TF_GraphProperties*, const char* name, int* num_values,
                                   TF_Status* status) {
  *num_values = 0;
  status->status =
      core::Unimplemented("TF_GetInputPropertiesListSize", name == nullptr ? "" : name);
}

void TF_GetOutputPropertiesListSize(TF_GraphProperties*, const char* name, int* num_values,
                                    TF_Status* status) {
  *num_values = 0;
  status->status =
      core::Unimplemented("TF_GetOutputPropertiesListSize", name == nullptr ? "" : name);
}

void TF_GetInputPropertiesList(TF_GraphProperties*, const char* name, TF_Buffer**, int,
                               TF_Status* status) {
  status->status = core::Unimplemented("TF_GetInputPropertiesList", name == nullptr ? "" : name);
}

void TF_GetOutputPropertiesList(TF_GraphProperties*, const char* name, TF_Buffer**, int,
                                TF_Status* status) {
  status->status = core::Unimplemented("TF_GetOutputPropertiesList", name == nullptr ? "" : name);
}

}  // extern "C"
