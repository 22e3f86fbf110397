"""Measures, on a TensorFlow wheel's CPU, that each stand-in of cpu_stand_ins.py computes what
its op defines (the numbers specs/ops/families/standin_families.yaml and the record's README
quote).

usage: python measure_stand_ins.py   (the Python of the 2.21.0 wheel)

One line per measurement. "bitwise" compares the bits of two CPU results; "max |diff|" and
"max rel" compare with the float64 definition, computed in numpy.
"""

import numpy as np
import tensorflow as tf
from tensorflow.core.framework import attr_value_pb2
from tensorflow.python.eager import context, execute

import cpu_stand_ins

BF16 = tf.bfloat16.as_numpy_dtype
DTYPES = {"float": np.float32, "double": np.float64, "half": np.float16, "bfloat16": BF16}
RNG = np.random.default_rng(0)


def values(shape, dtype, positive=False):
    data = RNG.uniform(0.5, 2.0, shape) if positive else RNG.standard_normal(shape)
    return data.astype(DTYPES[dtype])


def bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def eager(op, inputs, attrs, outputs=1):
    with tf.device("/CPU:0"):
        result = execute.execute(op, outputs, inputs=[tf.constant(i) for i in inputs],
                                 attrs=attrs, ctx=context.context())
    return [r.numpy() for r in result]


def in_graph(op, inputs, attrs, producer, outputs=1):
    """`op` in a session graph whose GraphDef producer version is `producer`."""
    build = tf.Graph()
    with build.as_default(), tf.device("/CPU:0"):
        constants = [tf.constant(value, name="in%d" % i) for i, value in enumerate(inputs)]
    graph_def = build.as_graph_def()
    node = graph_def.node.add(name="measured", op=op, device="/CPU:0")
    node.input.extend(c.op.name for c in constants)
    for name, value in attrs.items():
        node.attr[name].CopyFrom(value)
    graph_def.versions.producer = producer
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=graph) as session:
        return session.run(graph.get_operation_by_name("measured").outputs)[:outputs]


def proto(**kinds):
    (kind, item), = kinds.items()
    value = attr_value_pb2.AttrValue()
    if kind == "type":
        value.type = tf.as_dtype(item).as_datatype_enum
    elif kind == "list_i":
        value.list.i.extend(item)
    elif kind == "s":
        value.s = item
    else:
        setattr(value, kind, item)
    return value


def no_kernel(op, inputs, attrs):
    try:
        eager(op, inputs, attrs)
        return "runs"
    except tf.errors.OpError as error:
        return type(error).__name__


def conv2d_v2():
    x, f, g = values([1, 5, 5, 3], "float"), values([3, 3, 3, 2], "float"), values([1, 3, 3, 2],
                                                                                      "float")
    attrs = ("T", 1, "strides", [1, 1, 1, 1], "padding", "VALID")
    for op in ("Conv2DBackpropInputV2", "Conv2DBackpropFilterV2"):
        print("%s eager on the CPU: %s" % (op, no_kernel(op, [x, f, g], attrs)))
    # The V2 ops read only the shape of input (filter): their graph shape inference agrees.
    graph = tf.Graph()
    with graph.as_default():
        out = tf.raw_ops.Conv2DBackpropInputV2(input=x, filter=f, out_backprop=g,
                                                strides=[1, 1, 1, 1], padding="VALID")
        grad = tf.raw_ops.Conv2DBackpropFilterV2(input=x, filter=f, out_backprop=g,
                                                 strides=[1, 1, 1, 1], padding="VALID")
    print("Conv2DBackpropInputV2 inferred shape %s (input %s); FilterV2 %s (filter %s)" % (
        out.shape, list(x.shape), grad.shape, list(f.shape)))


def conv3d_v1():
    cases = [([1, 4, 4, 4, 2], [2, 2, 2, 2, 3], [1, 3, 3, 3, 3], [1, 1, 1, 1, 1], b"VALID"),
             ([1, 5, 5, 5, 2], [2, 2, 2, 2, 3], [1, 3, 3, 3, 3], [1, 2, 2, 2, 1], b"SAME")]
    for dtype in ("float", "double", "half"):  # the V1 ops' T allows no other
        same, diff = 0, 0.0
        for xs, fs, gs, strides, padding in cases:
            x, f, g = values(xs, dtype), values(fs, dtype), values(gs, dtype)
            attrs = {"T": proto(type=DTYPES[dtype]), "strides": proto(list_i=strides),
                     "padding": proto(s=padding)}
            for v1, v2, sized, index in (("Conv3DBackpropInput", "Conv3DBackpropInputV2", x, 0),
                                         ("Conv3DBackpropFilter", "Conv3DBackpropFilterV2", f, 1)):
                own = in_graph(v1, [x, f, g], attrs, 9)[0]
                sizes = np.array(sized.shape, np.int32)
                v2_inputs = [x, f, g]
                v2_inputs[index] = sizes
                v2_attrs = dict(attrs, Tshape=proto(type=np.int32)) if index == 0 else attrs
                graph_v2 = in_graph(v2, v2_inputs, v2_attrs, 9)[0]
                eager_v2 = eager(v2, v2_inputs, ("T", DTYPES_ENUM[dtype], "strides", strides,
                                                 "padding", padding.decode()))[0]
                same += bits_equal(own, graph_v2)
                diff = max(diff, float(np.max(np.abs(own.astype(np.float64) -
                                                     eager_v2.astype(np.float64)))))
        print("Conv3DBackpropInput/Filter %s: own kernel (producer 9) = V2 in the same graph "
              "bitwise in %d of 4; max |own - eager V2| %.3g" % (dtype, same, diff))


DTYPES_ENUM = {"float": 1, "double": 2, "half": 19, "bfloat16": 14}


def accumulate_n():
    for dtype, shape, n in (("float", [2, 3], 3), ("double", [4, 5], 4), ("half", [6, 6, 3], 5),
                            ("bfloat16", [3, 5], 2), ("float", [1100], 7)):
        inputs = [values(shape, dtype) for _ in range(n)]
        graph = tf.function(lambda: tf.raw_ops.AccumulateNV2(inputs=inputs, shape=shape))
        with tf.device("/CPU:0"):
            own = graph().numpy()  # a graph pass rewrites it into CPU ops (no kernel of its own)
        add_n = eager("AddN", inputs, ("N", n, "T", DTYPES_ENUM[dtype]))[0]
        want = np.sum([i.astype(np.float64) for i in inputs], axis=0)
        print("AccumulateNV2 %s %s x%d: tf.function's rewrite = AddN eager bitwise: %s; max "
              "|diff| to the float64 sum: rewrite %.3g, AddN %.3g" % (
                  dtype, shape, n, bits_equal(own, add_n),
                  float(np.max(np.abs(own.astype(np.float64) - want))),
                  float(np.max(np.abs(add_n.astype(np.float64) - want)))))
    print("AccumulateNV2 eager: %s" % no_kernel("AccumulateNV2", inputs,
                                                 ("N", n, "T", 1, "shape", shape)))


def tile_grad():
    for dtype, shape, multiples in (("float", [4, 3], [2, 1]), ("double", [6, 6, 6], [1, 2, 3]),
                                    ("half", [4, 6], [4, 2]), ("bfloat16", [2, 8], [2, 4])):
        x = values(shape, dtype)
        case = {"op": "TileGrad", "attrs": {}, "inputs": [
            {"name": "input", "dtype": dtype, "shape": shape, "hex": x.tobytes().hex()},
            {"name": "multiples", "dtype": "int32", "shape": [len(multiples)],
             "hex": np.array(multiples, np.int32).tobytes().hex()}]}
        got = cpu_stand_ins.tile_grad(case)[1][0].astype(np.float64)
        split = []
        for d, m in zip(shape, multiples):
            split += [m, d // m]
        want = x.astype(np.float64).reshape(split).sum(axis=tuple(range(0, len(split), 2)))
        print("TileGrad %s %s by %s: max rel to the float64 sum %.3g" % (
            dtype, shape, multiples, float(np.max(np.abs(got - want) / np.maximum(np.abs(want),
                                                                                   1e-3)))))
    print("TileGrad eager: %s" % no_kernel("TileGrad", [x, np.array(multiples, np.int32)],
                                           ("T", 14)))


def batch_norm_global():
    eps = float(np.float32(1e-3))  # the attr is a float: the kernel adds this value
    for dtype in ("float", "double", "half"):
        for scale in (True, False):
            t, m = values([2, 3, 3, 4], dtype), values([4], dtype)
            v, beta, gamma = values([4], dtype, True), values([4], dtype), values([4], dtype)
            back = values([2, 3, 3, 4], dtype)
            attrs = {"T": proto(type=DTYPES[dtype]), "variance_epsilon": proto(f=eps),
                     "scale_after_normalization": proto(b=scale)}
            own = in_graph("BatchNormWithGlobalNormalization", [t, m, v, beta, gamma], attrs, 8)
            d = {k: a.astype(np.float64) for k, a in
                 dict(t=t, m=m, v=v, beta=beta, gamma=gamma, back=back).items()}
            inv = 1 / np.sqrt(d["v"] + eps)
            g = d["gamma"] if scale else 1.0
            want = (d["t"] - d["m"]) * inv * g + d["beta"]
            grads = in_graph("BatchNormWithGlobalNormalizationGrad", [t, m, v, gamma, back],
                             attrs, 8, outputs=5)
            axes = (0, 1, 2)
            centred = d["t"] - d["m"]
            want_grads = [d["back"] * inv * g, -np.sum(d["back"], axes) * inv * g,
                          -0.5 * np.sum(d["back"] * centred, axes) * inv ** 3 * g,
                          np.sum(d["back"], axes),
                          np.sum(d["back"] * centred, axes) * inv if scale
                          else np.zeros_like(d["m"])]

            def rel(a, b):
                a = a.astype(np.float64)
                return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1.0)))
            print("BatchNormWithGlobalNormalization %s scale=%s (own kernel, producer 8): max rel "
                  "to the float64 formula %.3g; Grad dx dm dv db dg: %s" % (
                      dtype, scale, rel(own[0], want),
                      " ".join("%.3g" % rel(a, b) for a, b in zip(grads, want_grads))))


def max_pool_grad_grad_with_argmax():
    """The gather stand-in against MaxPoolGradGrad, which takes the pooled output instead of the
    argmax, where the argmax is MaxPoolWithArgmax's of the same input (distinct values)."""
    for dtype in DTYPES:
        same = 0
        for shape, k, s, pad in (([2, 4, 4, 2], 2, 2, "VALID"), ([1, 5, 5, 2], 3, 2, "SAME")):
            x = RNG.permutation(int(np.prod(shape))).reshape(shape).astype(DTYPES[dtype])
            grad = values(shape, dtype)
            for with_batch in (False, True):
                pooled, argmax = tf.raw_ops.MaxPoolWithArgmax(
                    input=x, ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=pad,
                    include_batch_in_index=with_batch)
                want = tf.raw_ops.MaxPoolGradGrad(orig_input=x, orig_output=pooled, grad=grad,
                                                  ksize=[1, k, k, 1], strides=[1, s, s, 1],
                                                  padding=pad).numpy()
                case = {"attrs": {"include_batch_in_index": {"b": with_batch}}, "inputs": [
                    {"name": n, "dtype": d, "shape": list(a.shape), "hex": a.tobytes().hex()}
                    for n, d, a in (("input", dtype, x), ("grad", dtype, grad),
                                    ("argmax", "int64", argmax.numpy()))]}
                got = cpu_stand_ins.max_pool_grad_grad_with_argmax(case)[1][0]
                same += bits_equal(got, want)
        print("MaxPoolGradGradWithArgmax %s: the gather = MaxPoolGradGrad bitwise in %d of 4" % (
            dtype, same))


if __name__ == "__main__":
    conv2d_v2()
    conv3d_v1()
    accumulate_n()
    tile_grad()
    batch_norm_global()
    max_pool_grad_grad_with_argmax()
