"""CPU stand-ins for oneDNN's layout ops (`_Mkl*` without `Native`): the base op they are the
oneDNN version of, run on the tensors in TensorFlow's layout (cpu_stand_ins.py merges these into
its COMPUTED and DESCRIPTIONS).

Each layout op takes, after its tensors, one uint8 `mkl_*` metadata input per tensor input and
gives one metadata output per tensor output. Its CPU kernels on the 2.21.0 wheel carry the kernel
label MklLayoutDependentOp, so no plain node finds them. Measured there with a node that asks for
the label (measure_mkl_stand_ins.py), 8 zero bytes as every metadata input (the metadata of a
tensor in TensorFlow's layout: the first byte, 0, says "not a oneDNN tensor"): most of those
kernels die or fail, so they are no oracle; where one runs it computes the base op's values, its
tensor outputs flat and often reordered into oneDNN's layout, with metadata saying so. So the
record holds the base op's outputs in TensorFlow's layout, a kernel is judged on those, and what
a device says about its layout is its own: the metadata outputs, and the filter or workspace
oneDNN hands to the next op, are recorded empty and never compared (the families'
`unjudged_outputs`; the batch normalizations' reserve spaces, unjudged too, are recorded empty
as well).
"""

import numpy as np

# Inputs of a layout op its base op lacks: the metadata, and the workspace _MklMaxPoolGrad reads
# only where workspace_enabled (the families leave it false).
_NOT_BASE = ("mkl_", "workspace")


def _base_case(case, base, op_def, base_def):
    """The case as `base`'s: the layout op's other inputs, in order, under the base op's names
    (_MklAvgPool3D's `value` is AvgPool3D's `input`), and only the attrs `base` defines."""
    defined = {attr.name for attr in base_def.attr}
    kept = [arg.name for arg in op_def.input_arg if not arg.name.startswith(_NOT_BASE)]
    renamed = dict(zip(kept, [arg.name for arg in base_def.input_arg]))
    inputs = [dict(t, name=renamed[t["name"]]) for t in case["inputs"] if t["name"] in renamed]
    attrs = {name: value for name, value in case["attrs"].items() if name in defined}
    for attr in base_def.attr:
        # Eager execution leaves a kernel's defaulted attrs unset (_FusedConv2D's num_host_args:
        # INTERNAL "Unable to read attr"): the base op's defaults, where the case has none.
        if attr.name not in attrs and attr.HasField("default_value"):
            default = _attr_json(attr.default_value)
            if default is not None:
                attrs[attr.name] = default
    if "TArgs" in defined and "TArgs" not in attrs:
        # _FusedConv2D types its args by a list, the layout op by T: num_args of T.
        count = case["attrs"]["num_args"]["i"]
        attrs["TArgs"] = {"list_type": [case["attrs"]["T"]["type"]] * count}
    outputs = [{"name": arg.name} for arg in base_def.output_arg]
    return dict(case, op=base, inputs=inputs, attrs=attrs, outputs=outputs)


def _attr_json(value):
    """An AttrValue as the case's attrs write it ({"i": 0}, {"list_i": [...]}), or None."""
    kind = value.WhichOneof("value")
    if kind in ("i", "f", "b", "type"):
        return {kind: getattr(value, kind)}
    if kind == "s":
        return {"s": value.s.decode()}
    if kind == "list":
        if value.list.s:
            return {"list_s": [s.decode() for s in value.list.s]}
        return {"list_i": list(value.list.i)}
    return None


def _empty(arg, case):
    """An unjudged output's recorded value: an empty tensor of the output's dtype."""
    from tf_cases import ENUM_DTYPE, numpy_dtype  # late: tf_cases imports this module

    dtype = case["attrs"][arg.type_attr]["type"] if arg.type_attr else arg.type
    return np.zeros([0], dtype=numpy_dtype(ENUM_DTYPE[dtype]))


def layout_op(base, then=None):
    """The layout op as `base` on its tensors; `then(named_inputs, base_outputs, case)` gives the
    outputs `base` lacks (a bias added, the bias's gradient), by output name."""
    def compute(case):
        from tensorflow.python.framework import op_def_registry
        from tf_cases import decode, run_case  # late: tf_cases imports this module

        op_def, base_def = op_def_registry.get(case["op"]), op_def_registry.get(base)
        outcome = run_case(_base_case(case, base, op_def, base_def), "/CPU:0")
        if outcome[0] != "ok":
            return outcome
        by_name = dict(zip([arg.name for arg in base_def.output_arg], outcome[1]))
        if then is not None:
            named = {t["name"]: decode(t) for t in case["inputs"]}
            by_name.update(then(named, by_name, case))
        # What the family leaves unjudged is recorded empty, the base op's reserve spaces too:
        # _FusedBatchNormEx leaves reserve_space_3 unwritten (other bytes on every run).
        unjudged = {o["name"] for o in case.get("outputs", []) if o.get("unjudged")}
        return ("ok", [by_name[arg.name] if arg.name in by_name and arg.name not in unjudged
                       else _empty(arg, case) for arg in op_def.output_arg])
    compute.base = base
    return compute


def _bias_added(named, outputs, case):
    """_MklConv2DWithBias: Conv2D's output with BiasAdd's bias along the last dimension."""
    import tensorflow as tf

    with tf.device("/CPU:0"):
        return {"output": tf.nn.bias_add(outputs["output"], named["bias"]).numpy()}


def _bias_grad(named, outputs, case):
    """_MklConv2DBackpropFilterWithBias: the bias's gradient, out_backprop summed over all but
    its last dimension (BiasAddGrad, NHWC)."""
    import tensorflow as tf

    with tf.device("/CPU:0"):
        return {"bias_grad": tf.raw_ops.BiasAddGrad(out_backprop=named["out_backprop"]).numpy()}


def _padded(stand_in):
    """_MklPadWithConv2D / _MklPadWithFusedConv2D: the input padded with zeros by `paddings`
    ([4, 2], Pad's), then the convolution."""
    def compute(case):
        import tensorflow as tf
        from tf_cases import decode  # late: tf_cases imports this module

        named = {t["name"]: t for t in case["inputs"]}
        with tf.device("/CPU:0"):
            padded = tf.pad(decode(named["input"]), decode(named["paddings"])).numpy()
        source = dict(named["input"], shape=list(padded.shape), hex=padded.tobytes().hex())
        inputs = [source if t["name"] == "input" else t for t in case["inputs"]
                  if t["name"] != "paddings"]
        return stand_in(dict(case, inputs=inputs))
    compute.base = "Pad then " + stand_in.base
    return compute


COMPUTED = {
    "_MklConv2D": layout_op("Conv2D"),
    "_MklConv2DWithBias": layout_op("Conv2D", _bias_added),
    "_MklConv2DBackpropInput": layout_op("Conv2DBackpropInput"),
    "_MklConv2DBackpropFilter": layout_op("Conv2DBackpropFilter"),
    "_MklConv2DBackpropFilterWithBias": layout_op("Conv2DBackpropFilter", _bias_grad),
    "_MklConv3D": layout_op("Conv3D"),
    "_MklConv3DBackpropInputV2": layout_op("Conv3DBackpropInputV2"),
    "_MklConv3DBackpropFilterV2": layout_op("Conv3DBackpropFilterV2"),
    "_MklDepthwiseConv2dNative": layout_op("DepthwiseConv2dNative"),
    "_MklDepthwiseConv2dNativeBackpropInput": layout_op("DepthwiseConv2dNativeBackpropInput"),
    "_MklDepthwiseConv2dNativeBackpropFilter": layout_op("DepthwiseConv2dNativeBackpropFilter"),
    "_MklAvgPool": layout_op("AvgPool"),
    "_MklAvgPool3D": layout_op("AvgPool3D"),
    "_MklAvgPoolGrad": layout_op("AvgPoolGrad"),
    "_MklAvgPool3DGrad": layout_op("AvgPool3DGrad"),
    "_MklMaxPool": layout_op("MaxPool"),
    "_MklMaxPool3D": layout_op("MaxPool3D"),
    "_MklMaxPoolGrad": layout_op("MaxPoolGrad"),
    "_MklMaxPool3DGrad": layout_op("MaxPool3DGrad"),
    "_MklConcatV2": layout_op("ConcatV2"),
    "_MklFusedBatchNormEx": layout_op("_FusedBatchNormEx"),
    "_MklFusedBatchNormV2": layout_op("FusedBatchNormV2"),
    "_MklFusedBatchNormV3": layout_op("FusedBatchNormV3"),
    "_MklFusedBatchNormGradV2": layout_op("FusedBatchNormGradV2"),
    "_MklFusedBatchNormGradV3": layout_op("FusedBatchNormGradV3"),
    "_MklFusedConv2D": layout_op("_FusedConv2D"),
    "_MklFusedDepthwiseConv2dNative": layout_op("_FusedDepthwiseConv2dNative"),
    "_MklPadWithConv2D": _padded(layout_op("Conv2D")),
    "_MklPadWithFusedConv2D": _padded(layout_op("_FusedConv2D")),
}

_WITH = {"_MklConv2DWithBias": " then BiasAdd of bias",
         "_MklConv2DBackpropFilterWithBias": ", the bias's gradient as BiasAddGrad of out_backprop"}

DESCRIPTIONS = {
    op: "computed as %s of the tensors in TensorFlow's layout%s (the metadata inputs 8 zero "
        "bytes; metadata outputs not compared)" % (stand_in.base, _WITH.get(op, ""))
    for op, stand_in in COMPUTED.items()
}
