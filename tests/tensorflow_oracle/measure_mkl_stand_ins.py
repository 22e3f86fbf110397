"""Measures, on a TensorFlow wheel's CPU, that mkl_stand_ins.py's stand-ins compute what oneDNN's
own layout kernels compute, and AudioSummary's what AudioSummaryV2 does (the figures
specs/ops/families/standin_families.yaml quotes).

usage: python measure_mkl_stand_ins.py   (the Python of the 2.21.0 wheel)

A layout op's own CPU kernel is found by a graph node that asks for its kernel label
(MklLayoutDependentOp), with 8 zero bytes as every metadata input. Its tensor output comes back
flat in oneDNN's layout: "in order" compares its values with the stand-in's in TensorFlow's
layout (NHWC) element by element; "as a set" compares both sorted (the values, whatever the
layout). One line per op and dtype.
"""

import subprocess
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import op_def_registry

import cpu_stand_ins
import tf_cases

RNG = np.random.default_rng(0)
LABEL = b"MklLayoutDependentOp"
DTYPE_NAMES = {"float": np.float32, "bfloat16": tf.bfloat16.as_numpy_dtype}
ENUMS = {"float": 1, "bfloat16": 14, "int32": 3}


def tensor(name, array, dtype):
    array = np.asarray(array).astype(tf_cases.numpy_dtype(dtype))
    return {"name": name, "dtype": dtype, "shape": list(array.shape),
            "hex": array.tobytes().hex()}


def conv_attrs(strides, padding="VALID"):
    return {"strides": {"list_i": strides}, "padding": {"s": padding}}


# op -> (tensor inputs as (name, shape, "fill [shape]" or a literal array), attrs): one case
# each, shapes of the families' cases.
SHAPES = [1, 5, 5, 3], [3, 3, 3, 4], [1, 3, 3, 4]
CASES = {
    "_MklConv2D": ([("input", SHAPES[0]), ("filter", SHAPES[1])], conv_attrs([1, 1, 1, 1])),
    "_MklConv2DWithBias": ([("input", SHAPES[0]), ("filter", SHAPES[1]), ("bias", [4])],
                           conv_attrs([1, 1, 1, 1])),
    "_MklConv2DBackpropInput": ([("input_sizes", np.array(SHAPES[0])), ("filter", SHAPES[1]),
                                 ("out_backprop", SHAPES[2])], conv_attrs([1, 1, 1, 1])),
    "_MklConv2DBackpropFilter": ([("input", SHAPES[0]), ("filter_sizes", np.array(SHAPES[1])),
                                  ("out_backprop", SHAPES[2])], conv_attrs([1, 1, 1, 1])),
    "_MklConv2DBackpropFilterWithBias": (
        [("input", SHAPES[0]), ("filter_sizes", np.array(SHAPES[1])),
         ("out_backprop", SHAPES[2])], conv_attrs([1, 1, 1, 1])),
    "_MklConv3D": ([("input", [1, 4, 4, 4, 2]), ("filter", [2, 2, 2, 2, 3])],
                   conv_attrs([1, 1, 1, 1, 1])),
    "_MklConv3DBackpropInputV2": (
        [("input_sizes", np.array([1, 4, 4, 4, 2])), ("filter", [2, 2, 2, 2, 3]),
         ("out_backprop", [1, 3, 3, 3, 3])], dict(conv_attrs([1, 1, 1, 1, 1]),
                                                  Tshape={"type": 3})),
    "_MklConv3DBackpropFilterV2": (
        [("input", [1, 4, 4, 4, 2]), ("filter_sizes", np.array([2, 2, 2, 2, 3])),
         ("out_backprop", [1, 3, 3, 3, 3])], conv_attrs([1, 1, 1, 1, 1])),
    "_MklDepthwiseConv2dNative": ([("input", [1, 5, 5, 2]), ("filter", [3, 3, 2, 2])],
                                  conv_attrs([1, 1, 1, 1])),
    "_MklDepthwiseConv2dNativeBackpropInput": (
        [("input_sizes", np.array([1, 5, 5, 2])), ("filter", [3, 3, 2, 2]),
         ("out_backprop", [1, 3, 3, 4])], conv_attrs([1, 1, 1, 1])),
    "_MklDepthwiseConv2dNativeBackpropFilter": (
        [("input", [1, 5, 5, 2]), ("filter_sizes", np.array([3, 3, 2, 2])),
         ("out_backprop", [1, 3, 3, 4])], conv_attrs([1, 1, 1, 1])),
    "_MklAvgPool": ([("value", [1, 5, 5, 3])],
                    dict(conv_attrs([1, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 1]})),
    "_MklAvgPool3D": ([("value", [1, 4, 4, 4, 2])],
                      dict(conv_attrs([1, 2, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 2, 1]})),
    "_MklAvgPoolGrad": ([("orig_input_shape", np.array([1, 4, 4, 3])), ("grad", [1, 2, 2, 3])],
                        dict(conv_attrs([1, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 1]})),
    "_MklAvgPool3DGrad": ([("orig_input_shape", np.array([1, 4, 4, 4, 2])),
                           ("grad", [1, 2, 2, 2, 2])],
                          dict(conv_attrs([1, 2, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 2, 1]})),
    "_MklMaxPool": ([("input", [1, 5, 5, 3])],
                    dict(conv_attrs([1, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 1]})),
    "_MklMaxPool3D": ([("input", [1, 4, 4, 4, 2])],
                      dict(conv_attrs([1, 2, 2, 2, 1]), ksize={"list_i": [1, 2, 2, 2, 1]})),
    "_MklConcatV2": ([("values", [2, 3, 4]), ("values", [2, 3, 4]), ("axis", np.array(1))],
                     {"N": {"i": 2}, "Tidx": {"type": 3}}),
    "_MklFusedConv2D": ([("input", SHAPES[0]), ("filter", SHAPES[1]), ("args", [4])],
                        dict(conv_attrs([1, 1, 1, 1]), num_args={"i": 1},
                             fused_ops={"list_s": ["BiasAdd", "Relu"]})),
    "_MklFusedDepthwiseConv2dNative": (
        [("input", [1, 5, 5, 2]), ("filter", [3, 3, 2, 2]), ("args", [4])],
        dict(conv_attrs([1, 1, 1, 1]), num_args={"i": 1},
             fused_ops={"list_s": ["BiasAdd", "Relu"]})),
    "_MklMaxPoolGrad": ([("orig_input", "ones [1,5,5,3]"), ("orig_output", "ones [1,3,3,3]"),
                         ("grad", [1, 3, 3, 3]), ("workspace", np.zeros([0], np.uint8))],
                        dict(conv_attrs([1, 2, 2, 1]), ksize={"list_i": [1, 1, 1, 1]})),
    "_MklPadWithConv2D": ([("input", [1, 5, 5, 2]), ("filter", [3, 3, 2, 3]),
                           ("paddings", np.array([[0, 0], [1, 1], [1, 1], [0, 0]]))],
                          conv_attrs([1, 1, 1, 1])),
    "_MklPadWithFusedConv2D": (
        [("input", [1, 5, 5, 2]), ("filter", [3, 3, 2, 3]), ("args", [3]),
         ("paddings", np.array([[0, 0], [1, 1], [1, 1], [0, 0]]))],
        dict(conv_attrs([1, 1, 1, 1]), num_args={"i": 1}, fused_ops={"list_s": ["BiasAdd"]})),
    "_MklFusedBatchNormEx": (
        [("x", [2, 3, 3, 4]), ("scale", [4]), ("offset", [4]), ("mean", [4]),
         ("variance", "positive [4]")],
        {"U": {"type": 1}, "epsilon": {"f": 0.001}, "activation_mode": {"s": "Relu"},
         "num_side_inputs": {"i": 0}}),
}
for _v in ("V2", "V3"):
    CASES["_MklFusedBatchNorm" + _v] = (
        [("x", [2, 3, 3, 4]), ("scale", [4]), ("offset", [4]), ("mean", [4]),
         ("variance", "positive [4]")],
        {"U": {"type": 1}, "epsilon": {"f": 0.001}, "is_training": {"b": True}})
    CASES["_MklFusedBatchNormGrad" + _v] = (
        [("y_backprop", [2, 3, 3, 4]), ("x", [2, 3, 3, 4]), ("scale", [4]),
         ("reserve_space_1", [4]), ("reserve_space_2", "positive [4]")]
        + ([("reserve_space_3", [0])] if _v == "V3" else []),
        {"U": {"type": 1}, "epsilon": {"f": 0.001}, "is_training": {"b": True}})


def make_case(op, dtype):
    spec, attrs = CASES[op]
    op_def = op_def_registry.get(op)
    typed = {arg.name: arg for arg in op_def.input_arg}
    inputs = []
    for name, shape in spec:
        arg = typed[name]
        if isinstance(shape, np.ndarray):  # a literal of the arg's integer dtype
            inputs.append(tensor(name, shape, "uint8" if arg.type == 4 else "int32"))
            continue
        fill = shape.split(" ")[0] if isinstance(shape, str) else "random"
        if isinstance(shape, str):
            shape = [int(s) for s in shape.split("[")[1].rstrip("]").split(",")]
        data = {"positive": lambda: RNG.uniform(0.5, 2.0, shape), "ones": lambda: np.ones(shape),
                "random": lambda: RNG.standard_normal(shape)}[fill]()
        own = "float" if arg.type == 1 or arg.type_attr == "U" else dtype
        inputs.append(tensor(name, data, own))
    attrs = dict(attrs, T={"type": ENUMS[dtype]})
    return {"op": op, "inputs": inputs, "attrs": attrs,
            "outputs": [{"name": a.name} for a in op_def.output_arg]}


def own_kernel(case):
    """The op's own oneDNN kernel: a graph node asking for its label, 8 zero bytes as metadata."""
    op_def = op_def_registry.get(case["op"])
    tensors = [t for t in case["inputs"]]
    graph = tf.Graph()
    with graph.as_default(), tf.device("/CPU:0"):
        values = [tf.constant(tf_cases.decode(t)) for t in tensors]
        metadata = [tf.constant(np.zeros([8], np.uint8)) for _ in tensors]
        attrs = {name: cpu_stand_ins._attr_proto(value) for name, value in case["attrs"].items()}
        attrs["_kernel"] = cpu_stand_ins._attr_proto({"s": LABEL.decode()})
        node = graph.create_op(case["op"], values + metadata,
                               [a.type or attrs[a.type_attr].type for a in op_def.output_arg],
                               attrs=attrs, name="own")
    with tf.compat.v1.Session(graph=graph) as session:
        return session.run(node.outputs)


def compare(expected, actual):
    """'in order' and 'as a set' max |diff| (None where the element counts differ)."""
    e = np.asarray(expected, np.float64).reshape(-1)
    a = np.asarray(actual, np.float64).reshape(-1)
    if e.size != a.size:
        return None, None
    return float(np.max(np.abs(e - a), initial=0)), float(
        np.max(np.abs(np.sort(e) - np.sort(a)), initial=0))


def layout_ops():
    """Each op and dtype in a process of its own: some own kernels die (SIGSEGV)."""
    for op in sorted(CASES):
        for dtype in DTYPE_NAMES:
            run = subprocess.run([sys.executable, __file__, op, dtype], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
            print(run.stdout.strip() or "%s %s: the process dies (%d)" % (op, dtype,
                                                                         run.returncode))


def layout_op(op, dtype):
    op_def = op_def_registry.get(op)
    case = make_case(op, dtype)
    stand_in = cpu_stand_ins.COMPUTED[op](case)
    try:
        own = own_kernel(case)
    except tf.errors.OpError as error:
        print("%s %s: own kernel %s (%s); stand-in %s" % (
            op, dtype, type(error).__name__, error.message[:120], stand_in[0]))
        return
    if stand_in[0] != "ok":
        print("%s %s: stand-in %s %s" % (op, dtype, stand_in[0], stand_in[1:]))
        return
    parts = []
    for i, arg in enumerate(op_def.output_arg):
        if arg.name.startswith("mkl_"):
            parts.append("%s[0]=%d" % (arg.name, own[i][0]))
            continue
        if stand_in[1][i].size == 0:
            continue  # unjudged: the stand-in records nothing
        order, as_set = compare(stand_in[1][i], own[i])
        parts.append("%s %s: in order %s, as a set %s" % (
            arg.name, list(np.shape(own[i])),
            "-" if order is None else "%.3g" % order,
            "-" if as_set is None else "%.3g" % as_set))
    print("%s %s: %s" % (op, dtype, "; ".join(parts)))


def audio_summary():
    """AudioSummary's own kernel (a graph of producer 14) against AudioSummaryV2, eager."""
    clips = [np.array([[-1.5, -1, -0.5, 0, 0.25], [0.5, 0.75, 1, 2, -0.125]], np.float32),
             RNG.standard_normal([1, 6, 2]).astype(np.float32),
             np.where(np.arange(15).reshape(3, 5) % 3 == 0, np.nan,
                      RNG.standard_normal([3, 5])).astype(np.float32)]
    same = 0
    for clip, rate, most in zip(clips, (8000.0, 16000.0, 16000.0), (1, 3, 3)):
        case = {"op": "AudioSummary", "attrs": {"sample_rate": {"f": rate},
                                                "max_outputs": {"i": most}},
                "inputs": [{"name": "tag", "dtype": "string", "shape": [],
                            "strings": [b"snd".hex()]}, tensor("tensor", clip, "float")]}
        own = cpu_stand_ins.before_removal(case)[1][0]
        with tf.device("/CPU:0"):
            v2 = tf.raw_ops.AudioSummaryV2(tag="snd", tensor=clip, sample_rate=rate,
                                           max_outputs=most).numpy()
        same += own == v2
    print("AudioSummary (own kernel, producer 14) = AudioSummaryV2 eager, bytes: %d of 3" % same)


if __name__ == "__main__":
    if len(sys.argv) == 3:
        layout_op(*sys.argv[1:])
        sys.exit(0)
    layout_ops()
    audio_summary()
