// ops.h, op definition half: TF_OpDefinitionBuilder. The builder collects the spec strings
// as given; registering records the op (Recorder + op registry) and frees the builder.
// TensorFlow validates the specs only when the op registry is next used, so
// TF_RegisterOpDefinition always reports OK here as it does there.
#include "core/c_strings.h"
#include "core/live_handles.h"
#include "core/op_registry.h"
#include "core/unimplemented.h"
#include "tensorflow/c/ops.h"

struct TF_OpDefinitionBuilder {
  conformance::core::OpDefinition definition;
};

namespace core = conformance::core;

extern "C" {

TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(const char* op_name) {
  auto* builder = new TF_OpDefinitionBuilder;
  builder->definition.registration.name = core::StringOrEmpty(op_name);
  core::CountLive(&core::LiveHandles::op_builders, +1);
  return builder;
}

void TF_RegisterOpDefinition(TF_OpDefinitionBuilder* builder, TF_Status* status) {
  if (builder == nullptr) core::Fatal("TF_RegisterOpDefinition", "builder is NULL");
  status->status = core::Status::Ok();
  core::OpDefinition definition = std::move(builder->definition);
  definition.registration.status_code = TF_OK;
  if (definition.registration.plugin.empty()) {
    definition.registration.plugin = core::Recorder::Instance().CurrentPlugin();
  }
  core::Recorder::Instance().AddOp(definition.registration);
  core::AddOpDefinition(std::move(definition));
  core::CountLive(&core::LiveHandles::op_builders, -1);
  delete builder;
}

void TF_DeleteOpDefinitionBuilder(TF_OpDefinitionBuilder* builder) {
  if (builder == nullptr) return;
  core::CountLive(&core::LiveHandles::op_builders, -1);
  delete builder;
}

void TF_OpDefinitionBuilderAddAttr(TF_OpDefinitionBuilder* builder, const char* attr_spec) {
  builder->definition.registration.attrs.push_back(core::StringOrEmpty(attr_spec));
}

void TF_OpDefinitionBuilderAddInput(TF_OpDefinitionBuilder* builder, const char* input_spec) {
  builder->definition.registration.inputs.push_back(core::StringOrEmpty(input_spec));
}

void TF_OpDefinitionBuilderAddOutput(TF_OpDefinitionBuilder* builder, const char* output_spec) {
  builder->definition.registration.outputs.push_back(core::StringOrEmpty(output_spec));
}

// TensorFlow's four flag setters ignore their bool: calling one sets the flag. Recorded
// the same way, so the mock registers exactly the op TensorFlow would.
void TF_OpDefinitionBuilderSetIsCommutative(TF_OpDefinitionBuilder* builder, bool) {
  builder->definition.registration.is_commutative = true;
}

void TF_OpDefinitionBuilderSetIsAggregate(TF_OpDefinitionBuilder* builder, bool) {
  builder->definition.registration.is_aggregate = true;
}

void TF_OpDefinitionBuilderSetIsStateful(TF_OpDefinitionBuilder* builder, bool) {
  builder->definition.registration.is_stateful = true;
}

void TF_OpDefinitionBuilderSetAllowsUninitializedInput(TF_OpDefinitionBuilder* builder, bool) {
  builder->definition.registration.allows_uninitialized_input = true;
}

void TF_OpDefinitionBuilderDeprecated(TF_OpDefinitionBuilder* builder, int version,
                                      const char* explanation) {
  builder->definition.deprecated = true;
  builder->definition.deprecation_version = version;
  builder->definition.deprecation_explanation = core::StringOrEmpty(explanation);
}

void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx, TF_Status* status)) {
  builder->definition.shape_inference = shape_inference_func;
  builder->definition.registration.has_shape_inference = shape_inference_func != nullptr;
}

}  // extern "C"
