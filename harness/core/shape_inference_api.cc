// ops.h, shape inference half: TF_ShapeInferenceContext* helpers with TensorFlow's
// InferenceContext semantics and messages.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "core/shape_inference.h"

namespace core = conformance::core;
using core::PartialShape;

namespace {

constexpr int64_t kUnknown = -1;

core::InferenceContext* Ctx(TF_ShapeInferenceContext* ctx) {
  return core::InferenceContext::FromC(ctx);
}

bool RankKnown(const TF_ShapeHandle* h) { return h->shape && !h->shape->unknown_rank; }
int64_t Rank(const TF_ShapeHandle* h) { return RankKnown(h) ? h->shape->rank() : kUnknown; }

core::Status InvalidArgument(std::string message) {
  return core::Status::Error(TF_INVALID_ARGUMENT, std::move(message));
}

void Set(TF_Status* status, const core::Status& s) { status->status = s; }

// WithRank* share the kint32max guard.
bool RankTooLarge(int64_t rank, TF_Status* status) {
  if (rank > std::numeric_limits<int32_t>::max()) {
    Set(status, InvalidArgument("Rank cannot exceed kint32max"));
    return true;
  }
  return false;
}

}  // namespace

extern "C" {

int64_t TF_ShapeInferenceContextNumInputs(TF_ShapeInferenceContext* ctx) {
  return Ctx(ctx)->num_inputs();
}

TF_ShapeHandle* TF_NewShapeHandle(void) { return new TF_ShapeHandle{}; }

void TF_ShapeInferenceContextGetInput(TF_ShapeInferenceContext* ctx, int i, TF_ShapeHandle* handle,
                                      TF_Status* status) {
  if (i < 0 || i >= Ctx(ctx)->num_inputs()) {
    Set(status, InvalidArgument("input index out of range"));
    return;
  }
  Set(status, core::Status::Ok());
  handle->shape = Ctx(ctx)->input(i);
}

void TF_ShapeInferenceContextSetOutput(TF_ShapeInferenceContext* ctx, int i, TF_ShapeHandle* handle,
                                       TF_Status* status) {
  if (i < 0 || i >= Ctx(ctx)->num_outputs()) {
    Set(status, InvalidArgument("output index out of range"));
    return;
  }
  Set(status, core::Status::Ok());
  Ctx(ctx)->set_output(i, handle->shape);
}

TF_ShapeHandle* TF_ShapeInferenceContextScalar(TF_ShapeInferenceContext*) {
  return new TF_ShapeHandle{PartialShape::Of({})};
}

TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(TF_ShapeInferenceContext*, size_t size) {
  return new TF_ShapeHandle{PartialShape::Of({static_cast<int64_t>(size)})};
}

TF_DimensionHandle* TF_NewDimensionHandle(void) { return new TF_DimensionHandle{}; }

void TF_ShapeInferenceContext_GetAttrType(TF_ShapeInferenceContext* ctx, const char* attr_name,
                                          TF_DataType* val, TF_Status* status) {
  TF_DataType value{};
  core::Status s = core::GetAttr(Ctx(ctx)->attrs(), Ctx(ctx)->node_name(), attr_name, &value);
  Set(status, s);
  if (s.ok()) *val = value;
}

int64_t TF_ShapeInferenceContextRank(TF_ShapeInferenceContext*, TF_ShapeHandle* handle) {
  return Rank(handle);
}

int TF_ShapeInferenceContextRankKnown(TF_ShapeInferenceContext*, TF_ShapeHandle* handle) {
  return RankKnown(handle) ? 1 : 0;
}

void TF_ShapeInferenceContextWithRank(TF_ShapeInferenceContext*, TF_ShapeHandle* handle,
                                      int64_t rank, TF_ShapeHandle* result, TF_Status* status) {
  if (RankTooLarge(rank, status)) return;
  const int64_t existing = Rank(handle);
  if (existing == rank) {
    result->shape = handle->shape;
  } else if (existing == kUnknown) {
    // An unknown shape takes the asked rank, every dimension unknown.
    result->shape = PartialShape::Of(
        std::vector<int64_t>(static_cast<std::size_t>(std::max<int64_t>(rank, 0)), kUnknown));
  } else {
    result->shape.reset();
    Set(status, InvalidArgument("Shape must be rank " + std::to_string(rank) + " but is rank " +
                                std::to_string(existing)));
    return;
  }
  Set(status, core::Status::Ok());
}

void TF_ShapeInferenceContextWithRankAtLeast(TF_ShapeInferenceContext*, TF_ShapeHandle* handle,
                                             int64_t rank, TF_ShapeHandle* result,
                                             TF_Status* status) {
  if (RankTooLarge(rank, status)) return;
  const int64_t existing = Rank(handle);
  if (existing >= rank || existing == kUnknown) {
    result->shape = handle->shape;
    Set(status, core::Status::Ok());
    return;
  }
  result->shape.reset();
  Set(status, InvalidArgument("Shape must be at least rank " + std::to_string(rank) +
                              " but is rank " + std::to_string(existing)));
}

void TF_ShapeInferenceContextWithRankAtMost(TF_ShapeInferenceContext*, TF_ShapeHandle* handle,
                                            int64_t rank, TF_ShapeHandle* result,
                                            TF_Status* status) {
  if (RankTooLarge(rank, status)) return;
  const int64_t existing = Rank(handle);
  if (existing <= rank || existing == kUnknown) {
    result->shape = handle->shape;
    Set(status, core::Status::Ok());
    return;
  }
  result->shape.reset();
  Set(status, InvalidArgument("Shape must be at most rank " + std::to_string(rank) +
                              " but is rank " + std::to_string(existing)));
}

// Out-of-range indices (and any index into an unknown-rank shape, whose rank reads as
// -1) give an unset dimension, as TensorFlow checks before indexing.
void TF_ShapeInferenceContextDim(TF_ShapeInferenceContext*, TF_ShapeHandle* shape_handle, int64_t i,
                                 TF_DimensionHandle* result) {
  const int64_t rank = Rank(shape_handle);
  if (i < -rank || i >= rank) {
    result->value.reset();
    return;
  }
  const int64_t index = i < 0 ? i + rank : i;
  result->value = shape_handle->shape->dims[static_cast<std::size_t>(index)];
}

void TF_ShapeInferenceContextSubshape(TF_ShapeInferenceContext*, TF_ShapeHandle* shape_handle,
                                      int64_t start, int64_t end, TF_ShapeHandle* result,
                                      TF_Status* status) {
  const int64_t start_in = start;
  const int64_t end_in = end;
  const int64_t rank = Rank(shape_handle);
  const bool known = RankKnown(shape_handle);
  if (start == 0 && ((known && end >= rank) || end == std::numeric_limits<int64_t>::max())) {
    result->shape = shape_handle->shape;
    Set(status, core::Status::Ok());
    return;
  }
  if (!known) {
    result->shape = PartialShape::Unknown();
    Set(status, core::Status::Ok());
    return;
  }
  start = std::min(start, rank);
  end = std::min(end, rank);
  if (start < 0) {
    start += rank;
    if (start < 0) {
      result->shape.reset();
      Set(status, InvalidArgument("Subshape start out of bounds: " + std::to_string(start_in) +
                                  ", for shape with rank " + std::to_string(rank)));
      return;
    }
  }
  if (end < 0) {
    end += rank;
    if (end < 0) {
      result->shape.reset();
      Set(status, InvalidArgument("Subshape end out of bounds: " + std::to_string(end_in) +
                                  ", for shape with rank " + std::to_string(rank)));
      return;
    }
  }
  if (start > end) {
    result->shape.reset();
    Set(status, InvalidArgument("Subshape must have computed start <= end, but is " +
                                std::to_string(start) + " and " + std::to_string(end) +
                                " (computed from start " + std::to_string(start_in) + " and end " +
                                std::to_string(end_in) + " over shape with rank " +
                                std::to_string(rank) + ")"));
    return;
  }
  const auto& dims = shape_handle->shape->dims;
  result->shape = PartialShape::Of(std::vector<int64_t>(dims.begin() + start, dims.begin() + end));
  Set(status, core::Status::Ok());
}

void TF_ShapeInferenceContextSetUnknownShape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  for (int i = 0; i < Ctx(ctx)->num_outputs(); ++i)
    Ctx(ctx)->set_output(i, PartialShape::Unknown());
  Set(status, core::Status::Ok());
}

int TF_DimensionHandleValueKnown(TF_DimensionHandle* dim_handle) {
  return dim_handle->value && *dim_handle->value >= 0 ? 1 : 0;
}

int64_t TF_DimensionHandleValue(TF_DimensionHandle* dim_handle) {
  return dim_handle->value.value_or(kUnknown);
}

void TF_ShapeInferenceContextConcatenateShapes(TF_ShapeInferenceContext*, TF_ShapeHandle* first,
                                               TF_ShapeHandle* second, TF_ShapeHandle* result,
                                               TF_Status* status) {
  if (!RankKnown(first) || !RankKnown(second)) {
    result->shape = PartialShape::Unknown();
  } else {
    std::vector<int64_t> dims = first->shape->dims;
    dims.insert(dims.end(), second->shape->dims.begin(), second->shape->dims.end());
    result->shape = PartialShape::Of(std::move(dims));
  }
  Set(status, core::Status::Ok());
}

void TF_DeleteShapeHandle(TF_ShapeHandle* handle) { delete handle; }

void TF_DeleteDimensionHandle(TF_DimensionHandle* handle) { delete handle; }

}  // extern "C"
