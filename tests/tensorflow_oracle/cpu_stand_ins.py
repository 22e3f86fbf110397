"""CPU stand-ins for ops TensorFlow 2.21.0's CPU has no kernel for that any node finds, which
device plugins register (DirectML, ITEX, GPU plugins): the case run as what the op defines.

Each entry was measured on the 2.21.0 wheel (specs/ops/families/standin_families.yaml says how):
- REWRITES: the case as another op's case (tf_cases.run_case runs that op instead);
- COMPUTED: the case's outputs computed by a few TensorFlow CPU ops, or by the op's own CPU
  kernel in a graph whose GraphDef producer version predates the op's removal.
A refusal of the stand-in (tf.errors.OpError) is the case's outcome, as it would be the op's.
"""

import itertools

import numpy as np


def _enum(name):
    from tf_cases import DTYPE_ENUM  # late: tf_cases imports this module

    return DTYPE_ENUM[name]


def _shape_input(tensor, name):
    """An int32 input holding `tensor`'s shape, named `name` (the sizes input of the V2 op)."""
    return {"name": name, "dtype": "int32", "shape": [len(tensor["shape"])],
            "hex": np.array(tensor["shape"], dtype=np.int32).tobytes().hex()}


def _sizes_from(op, sized, attrs=None):
    """The op that takes `sized`'s shape, not its values, as an int32 `<sized>_sizes` input.

    Conv2DBackpropInputV2/FilterV2 (no kernel on any device of the CPU wheel) and
    Conv3DBackpropInput/Filter (removed at GraphDef version 10) define their result from the
    input's (or filter's) shape only: the values of that tensor are never read."""
    def rewrite(case):
        inputs = [_shape_input(t, sized + "_sizes") if t["name"] == sized else t
                  for t in case["inputs"]]
        extra = {name: {"type": _enum(dtype)} for name, dtype in (attrs or {}).items()}
        return dict(case, op=op, inputs=inputs, attrs=dict(case["attrs"], **extra))
    return rewrite


def _add_n(case):
    """AccumulateNV2 is AddN whose output shape is also an attr: the sum of its N inputs."""
    attrs = {name: value for name, value in case["attrs"].items() if name != "shape"}
    return dict(case, op="AddN", attrs=attrs)


REWRITES = {
    "Conv2DBackpropInputV2": _sizes_from("Conv2DBackpropInput", "input"),
    "Conv2DBackpropFilterV2": _sizes_from("Conv2DBackpropFilter", "filter"),
    "Conv3DBackpropInput": _sizes_from("Conv3DBackpropInputV2", "input", {"Tshape": "int32"}),
    "Conv3DBackpropFilter": _sizes_from("Conv3DBackpropFilterV2", "filter"),
    "AccumulateNV2": _add_n,
}


def _named(case):
    from tf_cases import decode

    return {t["name"]: decode(t) for t in case["inputs"]}


def tile_grad(case):
    """TileGrad: the sum of the input's tiles, each of the output's shape (input shape divided by
    multiples), added tile after tile in row-major tile order with AddV2 in the input's dtype
    (its CPU kernel is registered under a Tmultiples constraint TileGrad's op lacks)."""
    import tensorflow as tf

    named = _named(case)
    value, multiples = named["input"], [int(m) for m in named["multiples"].reshape(-1)]
    if len(multiples) != value.ndim or any(m <= 0 or d % m for d, m in zip(value.shape, multiples)):
        raise tf.errors.InvalidArgumentError(None, None, "multiples do not divide the input")
    size = [d // m for d, m in zip(value.shape, multiples)]
    with tf.device("/CPU:0"):
        source = tf.constant(value)
        total = None
        for tile in itertools.product(*[range(m) for m in multiples]):
            begin = np.array([t * s for t, s in zip(tile, size)], np.int32)
            piece = tf.slice(source, begin, np.array(size, np.int32))
            total = piece if total is None else tf.raw_ops.AddV2(x=total, y=piece)
        return ("ok", [total.numpy()])


def max_pool_grad_grad_with_argmax(case):
    """MaxPoolGradGradWithArgmax: grad at each argmax, in the pooled shape. argmax indexes the
    flattened [H, W, C] of its own batch, or of the whole [N, H, W, C] where
    include_batch_in_index (as MaxPoolWithArgmax gives it); `input` gives only the shape (the
    GPU-only op's kernels are the only ones registered)."""
    import tensorflow as tf

    named = _named(case)
    grad, argmax = named["grad"], named["argmax"].astype(np.int64)
    with_batch = case["attrs"].get("include_batch_in_index", {}).get("b", False)
    if not with_batch:
        per_batch = int(np.prod(grad.shape[1:]))
        argmax = argmax + per_batch * np.arange(argmax.shape[0]).reshape([-1, 1, 1, 1])
    with tf.device("/CPU:0"):
        flat = tf.reshape(tf.constant(grad), [-1])
        return ("ok", [tf.gather(flat, tf.constant(argmax)).numpy()])


def _attr_proto(value):
    from tensorflow.core.framework import attr_value_pb2

    (kind, item), = value.items()
    proto = attr_value_pb2.AttrValue()
    if kind == "type":
        proto.type = item
    elif kind in ("i", "f", "b"):
        setattr(proto, kind, item)
    elif kind == "s":
        proto.s = item.encode()
    elif kind == "list_i":
        proto.list.i.extend(item)
    elif kind == "list_s":
        proto.list.s.extend(s.encode() for s in item)
    elif kind == "shape":
        for size in item:
            proto.shape.dim.add(size=size)
    else:
        raise ValueError("attr kind %s has no stand-in proto" % kind)
    return proto


def before_removal(case):
    """The op's own CPU kernel, in a graph whose GraphDef producer version is the one before the
    op's removal (an eager node, or a graph of today's version, is refused UNIMPLEMENTED before
    any kernel runs): BatchNormWithGlobalNormalization and its gradient (removed at 9),
    AudioSummary (removed at 15)."""
    import tensorflow as tf
    from tensorflow.python.framework import op_def_registry

    op_def = op_def_registry.get(case["op"])
    named = _named(case)
    build = tf.Graph()
    with build.as_default(), tf.device("/CPU:0"):
        constants = [tf.constant(named[arg.name], name="in_" + arg.name)
                     for arg in op_def.input_arg]
    graph_def = build.as_graph_def()
    node = graph_def.node.add(name="stand_in", op=case["op"], device="/CPU:0")
    node.input.extend(c.op.name for c in constants)
    defined = {attr.name for attr in op_def.attr}
    for name, value in case["attrs"].items():
        if name in defined:
            node.attr[name].CopyFrom(_attr_proto(value))
    graph_def.versions.producer = op_def.deprecation.version - 1
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=graph) as session:
        try:
            return ("ok", session.run(graph.get_operation_by_name("stand_in").outputs))
        except tf.errors.OpError as error:
            from tf_cases import session_error  # late: tf_cases imports this module

            return session_error(error)


COMPUTED = {
    "TileGrad": tile_grad,
    "MaxPoolGradGradWithArgmax": max_pool_grad_grad_with_argmax,
    "BatchNormWithGlobalNormalization": before_removal,
    "BatchNormWithGlobalNormalizationGrad": before_removal,
    "AudioSummary": before_removal,
}


# What each stand-in computes, as the record says it (specs/ops/record/record.py writes it into
# the op's file as "stand_in") and a failure names it: the vendor reads which computation their
# kernel disagreed with. TopK's stand-in is tf_cases.cpu_stand_in's own.
DESCRIPTIONS = {
    "TopK": "computed as TopKV2 with the same k as an int32 input and int32 indices",
    "Conv2DBackpropInputV2": "computed as Conv2DBackpropInput of the input's shape",
    "Conv2DBackpropFilterV2": "computed as Conv2DBackpropFilter of the filter's shape",
    "Conv3DBackpropInput": "computed as Conv3DBackpropInputV2 of the input's shape",
    "Conv3DBackpropFilter": "computed as Conv3DBackpropFilterV2 of the filter's shape",
    "AccumulateNV2": "computed as AddN of the same inputs",
    "TileGrad": "computed as the tiles added in order with AddV2",
    "MaxPoolGradGradWithArgmax": "computed as a gather of grad at argmax",
    "BatchNormWithGlobalNormalization":
        "computed by the op's own CPU kernel in a graph of GraphDef version 8, before its removal",
    "BatchNormWithGlobalNormalizationGrad":
        "computed by the op's own CPU kernel in a graph of GraphDef version 8, before its removal",
    "AudioSummary":
        "computed by the op's own CPU kernel in a graph of GraphDef version 14, before its removal",
}


# oneDNN's layout ops (_MklConv2D, ...) as their base ops (mkl_stand_ins.py).
import mkl_stand_ins  # noqa: E402

COMPUTED.update(mkl_stand_ins.COMPUTED)
DESCRIPTIONS.update(mkl_stand_ins.DESCRIPTIONS)
