// kernels.h, construction half: TF_OpKernelConstruction_* on a KernelConstruction.
// Messages and the order of checks follow TensorFlow's kernels.cc: scalar getters go
// through GetNodeAttr (NOT_FOUND "No attr named ..."), list getters and GetAttrSize
// through their own lookup (INVALID_ARGUMENT "Operation '<node>' has no attr named ...").
#include <algorithm>
#include <cstring>

#include "core/buffer.h"
#include "core/kernel_context.h"
#include "core/live_handles.h"
#include "core/proto_serialize.h"
#include "core/unimplemented.h"
#include "tensorflow/c/kernels.h"

namespace core = conformance::core;

namespace {

core::KernelConstruction& Ctor(TF_OpKernelConstruction* ctx) {
  return *core::KernelConstruction::FromC(ctx);
}
const std::string& NodeName(TF_OpKernelConstruction* ctx) { return Ctor(ctx).node().name; }

// Records getter errors, so checks can see plugins that ignore them.
void Report(const char* function, TF_OpKernelConstruction* ctx, const core::Status& s) {
  core::RecordCallError(function, NodeName(ctx), s);
}

// The list getters' and GetAttrSize's own lookup.
const core::AttrValue* FindForList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                   TF_Status* status) {
  const auto& attrs = Ctor(ctx).node().attrs;
  auto it = attrs.find(std::string_view(attr_name));
  if (it == attrs.end()) {
    status->status =
        core::Status::Error(TF_INVALID_ARGUMENT, "Operation '" + NodeName(ctx) +
                                                     "' has no attr named '" + attr_name + "'.");
    return nullptr;
  }
  return &it->second;
}

template <typename CType, typename CppType>
void GetScalar(const char* function, TF_OpKernelConstruction* ctx, const char* attr_name,
               CType* val, TF_Status* status) {
  CppType v{};
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &v);
  status->status = s;
  if (s.ok()) *val = static_cast<CType>(v);
  Report(function, ctx, s);
}

template <typename CType, typename Field>
void GetList(const char* function, TF_OpKernelConstruction* ctx, const char* attr_name,
             const char* list_type, Field field, CType* vals, int max_vals, TF_Status* status) {
  status->status = core::Status::Ok();
  const core::AttrValue* attr = FindForList(ctx, attr_name, status);
  if (attr != nullptr) {
    const auto* list = std::get_if<core::AttrList>(attr);
    if (list == nullptr) {
      status->status = core::Status::Error(
          TF_INVALID_ARGUMENT, "Attribute '" + std::string(attr_name) + "' is not a list.");
    } else {
      status->status = core::AttrValueHasType(*attr, list_type);
      if (status->status.ok()) {
        const auto& values = list->*field;
        const int n = std::min(max_vals, static_cast<int>(values.size()));
        for (int i = 0; i < n; ++i)
          vals[i] = static_cast<CType>(values[static_cast<std::size_t>(i)]);
      }
    }
  }
  Report(function, ctx, status->status);
}

}  // namespace

extern "C" {

void TF_OpKernelConstruction_Failure(TF_OpKernelConstruction* ctx, TF_Status* status) {
  if (status == nullptr) core::Fatal("TF_OpKernelConstruction_Failure", "status is NULL");
  Ctor(ctx).Fail(status->status);
}

void TF_OpKernelConstruction_GetAttrSize(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         int32_t* list_size, int32_t* total_size,
                                         TF_Status* status) {
  status->status = core::Status::Ok();
  const core::AttrValue* attr = FindForList(ctx, attr_name, status);
  if (attr == nullptr) {
    *list_size = -1;
    *total_size = -1;
    Report("TF_OpKernelConstruction_GetAttrSize", ctx, status->status);
    return;
  }
  *list_size = -1;
  *total_size = -1;
  if (const auto* s = std::get_if<std::string>(attr)) {
    *total_size = static_cast<int32_t>(s->size());
  } else if (const auto* shape = std::get_if<core::PartialShape>(attr)) {
    *total_size = shape->unknown_rank ? -1 : static_cast<int32_t>(shape->dims.size());
  } else if (const auto* list = std::get_if<core::AttrList>(attr)) {
    // The first non-empty field decides, in TensorFlow's order. Function lists are never
    // counted: TensorFlow tests the tensor field for them, so they read as empty.
    *list_size = 0;
    if (!list->s.empty()) {
      *list_size = static_cast<int32_t>(list->s.size());
      int64_t total = 0;
      for (const auto& v : list->s) total += static_cast<int64_t>(v.size());
      *total_size = static_cast<int32_t>(total);
    } else if (!list->i.empty()) {
      *list_size = static_cast<int32_t>(list->i.size());
    } else if (!list->f.empty()) {
      *list_size = static_cast<int32_t>(list->f.size());
    } else if (!list->b.empty()) {
      *list_size = static_cast<int32_t>(list->b.size());
    } else if (!list->type.empty()) {
      *list_size = static_cast<int32_t>(list->type.size());
    } else if (!list->shape.empty()) {
      *list_size = static_cast<int32_t>(list->shape.size());
      int64_t total = 0;  // unknown ranks count as 0
      for (const auto& v : list->shape)
        total += v.unknown_rank ? 0 : static_cast<int64_t>(v.dims.size());
      *total_size = static_cast<int32_t>(total);
    } else if (!list->tensor.empty()) {
      *list_size = static_cast<int32_t>(list->tensor.size());
    }
  } else if (std::holds_alternative<core::AttrNotSet>(*attr)) {
    status->status = core::Status::Error(
        TF_INVALID_ARGUMENT, "Attribute '" + std::string(attr_name) + "' has no value set");
  }
  // int, float, bool, type, tensor, func, placeholder: -1 / -1.
  Report("TF_OpKernelConstruction_GetAttrSize", ctx, status->status);
}

void TF_OpKernelConstruction_GetAttrType(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         TF_DataType* val, TF_Status* status) {
  GetScalar<TF_DataType, TF_DataType>("TF_OpKernelConstruction_GetAttrType", ctx, attr_name, val,
                                      status);
}

void TF_OpKernelConstruction_GetAttrInt32(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          int32_t* val, TF_Status* status) {
  GetScalar<int32_t, int32_t>("TF_OpKernelConstruction_GetAttrInt32", ctx, attr_name, val, status);
}

void TF_OpKernelConstruction_GetAttrInt64(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          int64_t* val, TF_Status* status) {
  GetScalar<int64_t, int64_t>("TF_OpKernelConstruction_GetAttrInt64", ctx, attr_name, val, status);
}

void TF_OpKernelConstruction_GetAttrFloat(TF_OpKernelConstruction* ctx, const char* attr_name,
                                          float* val, TF_Status* status) {
  GetScalar<float, float>("TF_OpKernelConstruction_GetAttrFloat", ctx, attr_name, val, status);
}

void TF_OpKernelConstruction_GetAttrBool(TF_OpKernelConstruction* ctx, const char* attr_name,
                                         TF_Bool* val, TF_Status* status) {
  GetScalar<TF_Bool, bool>("TF_OpKernelConstruction_GetAttrBool", ctx, attr_name, val, status);
}

void TF_OpKernelConstruction_GetAttrString(TF_OpKernelConstruction* ctx, const char* attr_name,
                                           char* val, size_t max_length, TF_Status* status) {
  std::string v;
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &v);
  status->status = s;
  Report("TF_OpKernelConstruction_GetAttrString", ctx, s);
  // No NUL terminator, exactly like TensorFlow.
  if (s.ok() && max_length > 0) {
    std::memcpy(val, v.data(),  // NOLINT(bugprone-not-null-terminated-result)
                std::min(v.size(), max_length));
  }
}

void TF_OpKernelConstruction_GetAttrTensor(TF_OpKernelConstruction* ctx, const char* attr_name,
                                           TF_Tensor** val, TF_Status* status) {
  *val = nullptr;
  core::Tensor t;
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &t);
  if (s.ok()) *val = core::TensorHandleForPlugin(t, &s);
  status->status = s;
  Report("TF_OpKernelConstruction_GetAttrTensor", ctx, s);
}

void TF_OpKernelConstruction_GetAttrTypeList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                             TF_DataType* vals, int max_vals, TF_Status* status) {
  GetList("TF_OpKernelConstruction_GetAttrTypeList", ctx, attr_name, "list(type)",
          &core::AttrList::type, vals, max_vals, status);
}

void TF_OpKernelConstruction_GetAttrInt32List(TF_OpKernelConstruction* ctx, const char* attr_name,
                                              int32_t* vals, int max_vals, TF_Status* status) {
  GetList("TF_OpKernelConstruction_GetAttrInt32List", ctx, attr_name, "list(int)",
          &core::AttrList::i, vals, max_vals, status);
}

void TF_OpKernelConstruction_GetAttrInt64List(TF_OpKernelConstruction* ctx, const char* attr_name,
                                              int64_t* vals, int max_vals, TF_Status* status) {
  GetList("TF_OpKernelConstruction_GetAttrInt64List", ctx, attr_name, "list(int)",
          &core::AttrList::i, vals, max_vals, status);
}

void TF_OpKernelConstruction_GetAttrFloatList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                              float* vals, int max_vals, TF_Status* status) {
  GetList("TF_OpKernelConstruction_GetAttrFloatList", ctx, attr_name, "list(float)",
          &core::AttrList::f, vals, max_vals, status);
}

void TF_OpKernelConstruction_GetAttrBoolList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                             TF_Bool* vals, int max_vals, TF_Status* status) {
  GetList("TF_OpKernelConstruction_GetAttrBoolList", ctx, attr_name, "list(bool)",
          &core::AttrList::b, vals, max_vals, status);
}

void TF_OpKernelConstruction_GetAttrStringList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                               char** values, size_t* lengths, int max_values,
                                               void* storage, size_t storage_size,
                                               TF_Status* status) {
  std::vector<std::string> v;
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &v);
  status->status = s;
  if (s.ok()) {
    // values[i]/lengths[i] are written before the overflow test, as in TensorFlow.
    const int n = std::min(max_values, static_cast<int>(v.size()));
    char* p = static_cast<char*>(storage);
    char* const end = static_cast<char*>(storage) + storage_size;
    for (int i = 0; i < n; ++i) {
      const std::string& item = v[static_cast<std::size_t>(i)];
      values[i] = p;
      lengths[i] = item.size();
      if (static_cast<size_t>(end - p) < item.size()) {
        status->status = core::Status::Error(
            TF_INVALID_ARGUMENT, "Not enough storage to hold the requested list of strings");
        break;
      }
      // Back to back, delimited by lengths[i], not by NUL (the ABI's contract).
      std::memcpy(p, item.data(), item.size());  // NOLINT(bugprone-not-null-terminated-result)
      p += item.size();
    }
  }
  Report("TF_OpKernelConstruction_GetAttrStringList", ctx, status->status);
}

void TF_OpKernelConstruction_GetAttrTensorList(TF_OpKernelConstruction* ctx, const char* attr_name,
                                               TF_Tensor** vals, int max_values,
                                               TF_Status* status) {
  std::vector<core::Tensor> v;
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &v);
  if (s.ok()) {
    const int n = std::min(max_values, static_cast<int>(v.size()));
    for (int i = 0; i < n && s.ok(); ++i)
      vals[i] = core::TensorHandleForPlugin(v[static_cast<std::size_t>(i)], &s);
  }
  status->status = s;
  Report("TF_OpKernelConstruction_GetAttrTensorList", ctx, s);
}

TF_Buffer* TF_OpKernelConstruction_GetAttrFunction(TF_OpKernelConstruction* ctx,
                                                   const char* attr_name, TF_Status* status) {
  core::NameAttrList function;
  core::Status s = core::GetAttr(Ctor(ctx).node().attrs, NodeName(ctx), attr_name, &function);
  status->status = s;
  Report("TF_OpKernelConstruction_GetAttrFunction", ctx, s);
  if (!s.ok()) return nullptr;
  TF_Buffer* buffer = TF_NewBuffer();
  status->status = core::WriteToBuffer(core::SerializeNameAttrList(function), buffer);
  return buffer;
}

bool TF_OpKernelConstruction_HasAttr(TF_OpKernelConstruction* ctx, const char* attr_name,
                                     TF_Status*) {
  // The status is not touched, as in TensorFlow.
  const auto& attrs = Ctor(ctx).node().attrs;
  return attrs.find(std::string_view(attr_name)) != attrs.end();
}

TF_StringView TF_OpKernelConstruction_GetName(TF_OpKernelConstruction* ctx) {
  const std::string& name = NodeName(ctx);
  return TF_StringView{name.data(), name.size()};
}

TF_Buffer* TF_OpKernelConstruction_GetNodeDef(TF_OpKernelConstruction* ctx, TF_Status* status) {
  TF_Buffer* buffer = TF_NewBuffer();
  status->status = core::WriteToBuffer(core::SerializeNodeDef(Ctor(ctx).node()), buffer);
  if (!status->status.ok()) {
    TF_DeleteBuffer(buffer);
    return nullptr;
  }
  return buffer;
}

}  // extern "C"
