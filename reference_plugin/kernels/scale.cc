// Reference>Scale: y = x * scale, the plugin's own op, defined through ops.h and run by a kernel
// of this plugin. TensorFlow has no such op, so the plugin registers the op definition (with a
// shape function) before the kernel; "Namespace>Name" is TensorFlow's spelling for custom ops
// that must not collide with its own (Addons>... uses it too).
#include "kernels/kernel_families.h"
#include "kernels/typed_registration.h"
#include "tensorflow/c/ops.h"

namespace reference_plugin::kernels {
namespace {

// The output has the input's shape, whatever is known of it: an input of unknown rank gives an
// output of unknown rank, never an error (TensorFlow builds graphs before shapes are known).
void scale_shape_fn(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* input = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, input, status);
  if (TF_GetCode(status) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 0, input, status);
  TF_DeleteShapeHandle(input);
}

template <typename T>
class ScaleKernel : public OpKernel {
 public:
  ScaleKernel(AttrReader& attrs, Status* status) { *status = attrs.get("scale", &scale_); }

  Status compute(OpContext& ctx) override {
    TensorRef x, y;
    REFERENCE_RETURN_IF_ERROR(ctx.input(0, &x));
    REFERENCE_RETURN_IF_ERROR(ctx.allocate_output(0, kDataType<T>, x.shape(), &y));
    return ctx.enqueue(
        [in = x.data<const T>(), out = y.data<T>(), n = x.num_elements(), scale = scale_] {
          for (int64_t i = 0; i < n; ++i) out[i] = narrow<T>(widen(in[i]) * scale);
        });
  }

 private:
  float scale_ = 1.0f;
};

Status register_scale_op_definition() {
  TF_OpDefinitionBuilder* builder = TF_NewOpDefinitionBuilder(kScaleOp);
  TF_OpDefinitionBuilderAddInput(builder, "x: T");
  TF_OpDefinitionBuilderAddOutput(builder, "y: T");
  TF_OpDefinitionBuilderAddAttr(builder, "T: {float, half, bfloat16, double}");
  TF_OpDefinitionBuilderAddAttr(builder, "scale: float = 1.0");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(builder, &scale_shape_fn);
  TF_Status* tf_status = TF_NewStatus();
  TF_RegisterOpDefinition(builder, tf_status);  // takes the builder, whatever the outcome
  Status status = status_from_tf(tf_status);
  TF_DeleteStatus(tf_status);
  return status;
}

}  // namespace

Status register_scale_op() {
  REFERENCE_RETURN_IF_ERROR(register_scale_op_definition());
  return register_for_types<ScaleKernel>(kScaleOp, FloatTypes{});
}

}  // namespace reference_plugin::kernels
