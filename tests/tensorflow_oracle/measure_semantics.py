"""Measures numeric semantics of TensorFlow's CPU kernels that kernel scenarios depend on, and
prints them as the Markdown list recorded in specs/scenarios/kernels.md ("Measured on
TensorFlow's CPU").

usage: python measure_semantics.py   (the Python of a TensorFlow wheel)

Each line is one measurement: op, dtype, inputs, TensorFlow's output (bits where signs matter).
Tensors of 1 and of 16 elements are both measured where vectorised code may differ from scalar.
"""

import numpy as np
import tensorflow as tf
from tensorflow.python.eager import context, execute

ENUM = {np.float32: 1, np.float64: 2, np.int32: 3, np.int64: 9, np.float16: 19}
BF16 = tf.bfloat16.as_numpy_dtype
ENUM[BF16] = 14


def run(op, inputs, attrs):
    with tf.device("/CPU:0"):
        try:
            outputs = execute.execute(op, 1, inputs=[tf.constant(i) for i in inputs],
                                      attrs=attrs, ctx=context.context())
            return outputs[0].numpy()
        except tf.errors.OpError as error:
            return "%s: %s" % (type(error).__name__, error.message.split("}}")[-1].strip())


def show(values):
    if isinstance(values, str):
        return values
    flat = np.asarray(values).reshape(-1)
    out = []
    for v in flat[:6]:
        if isinstance(v, (np.floating, BF16)) or flat.dtype == BF16:
            f = float(v)
            out.append("-0" if f == 0 and np.signbit(f) else ("%.4g" % f))
        else:
            out.append(str(v))
    return "[" + ", ".join(out) + "]"


def denormals():
    print("- Subnormals (`denorm_min` d; `op(d, 0)` and `op(d)`), 1 element:")
    for dtype, name in [(np.float32, "float"), (np.float64, "double"), (np.float16, "half"),
                        (BF16, "bfloat16")]:
        d = np.array([np.finfo(np.float32).smallest_subnormal], np.float32).astype(dtype) \
            if dtype is BF16 else np.array([np.finfo(dtype).smallest_subnormal], dtype)
        if dtype is BF16:
            d = np.array([9.183549615799121e-41], np.float32).astype(BF16)
        zero = np.zeros(1, dtype)
        one = np.ones(1, dtype)
        cells = []
        for op, inputs in [("AddV2", [d, zero]), ("Mul", [d, one]), ("Maximum", [d, zero]),
                           ("Neg", [d]), ("Abs", [d]), ("Relu", [d]), ("Square", [d]),
                           ("Sqrt", [d]), ("Log", [d])]:
            cells.append("%s %s" % (op, show(run(op, inputs, ("T", ENUM[dtype])))))
        print("  - %s: %s" % (name, "; ".join(cells)))


def nans_and_zeros():
    nan = np.float32("nan")
    x = np.array([nan, 1, nan, -0.0, 0.0, -0.0], np.float32)
    y = np.array([1, nan, nan, 0.0, -0.0, -0.0], np.float32)
    print("- x = %s, y = %s (float):" % (show(x), show(y)))
    for op in ["Maximum", "Minimum", "AddV2", "Sub", "Mul"]:
        print("  - %s(x, y) = %s" % (op, show(run(op, [x, y], ("T", 1)))))
    for n in (1, 16):
        z = np.full(n, -0.0, np.float32)
        print("  - Relu(-0), %d element(s): %s; Neg(0): %s; Relu(NaN): %s" % (
            n, show(run("Relu", [z], ("T", 1))[:1]),
            show(run("Neg", [np.zeros(n, np.float32)], ("T", 1))[:1]),
            show(run("Relu", [np.full(n, nan, np.float32)], ("T", 1))[:1])))
    print("  - Max(reduce [1, NaN, 3]) = %s" % show(run(
        "Max", [np.array([1, nan, 3], np.float32), np.array([0], np.int32)],
        ("T", 1, "Tidx", 3, "keep_dims", False))))


def integers():
    i = np.array([2**31 - 1, -2**31, 7, -7, -7, -2**31], np.int32)
    j = np.array([1, -1, 2, 2, -2, -1], np.int32)
    print("- int32 x = %s, y = %s:" % (show(i), show(j)))
    for op in ["AddV2", "Sub", "Mul", "FloorDiv", "TruncateDiv", "FloorMod"]:
        print("  - %s(x, y) = %s" % (op, show(run(op, [i, j], ("T", 3)))))
    for op in ["Neg", "Abs", "Square"]:
        print("  - %s(x) = %s" % (op, show(run(op, [i], ("T", 3)))))
    print("  - FloorDiv(x, 0) = %s" % show(run("FloorDiv", [i, np.zeros(6, np.int32)],
                                               ("T", 3))))


def casts_and_rounding():
    f = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, -2.7], np.float32)
    print("- Cast float -> int32 of %s: %s" % (show(f), show(run(
        "Cast", [f], ("SrcT", 1, "DstT", 3, "Truncate", False)))))
    h = np.array([1 + 2**-11, 1 + 3 * 2**-11, 65520, 2**-25, 3 * 2**-25], np.float32)
    print("- Cast float -> half of [1+2^-11, 1+3*2^-11, 65520, 2^-25, 3*2^-25]: %s "
          "(ties to even, overflow to inf, subnormals kept)" % show(run(
              "Cast", [h], ("SrcT", 1, "DstT", 19, "Truncate", False))))
    b = np.array([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20], np.float32)
    for truncate in (False, True):
        print("- Cast float -> bfloat16 of [1+2^-8, 1+3*2^-8, 1+2^-8+2^-20], Truncate=%s: %s" % (
            truncate, show(run("Cast", [b], ("SrcT", 1, "DstT", 14, "Truncate", truncate)))))
    x = np.array([300], np.float16)
    y = np.array([44], np.float16)
    print("- SquaredDifference(half 300, half 44) = %s (256^2 overflows half)" % show(
        run("SquaredDifference", [x, y], ("T", 19))))


def shape_errors():
    f = np.ones((2, 3), np.float32)
    print("- Errors (code: message as the kernel sets it):")
    for label, op, inputs, attrs in [
            ("AddV2 [2,3] + [4]", "AddV2", [f, np.ones(4, np.float32)], ("T", 1)),
            ("MatMul [2,3] x [4,2]", "MatMul", [f, np.ones((4, 2), np.float32)],
             ("T", 1, "transpose_a", False, "transpose_b", False)),
            ("BiasAdd [2,3] + bias [4]", "BiasAdd", [f, np.ones(4, np.float32)],
             ("T", 1, "data_format", "NHWC")),
            ("Sum of [2,3] over axis 2", "Sum", [f, np.array([2], np.int32)],
             ("T", 1, "Tidx", 3, "keep_dims", False)),
            ("Transpose [2,3] perm [0,0]", "Transpose", [f, np.array([0, 0], np.int32)],
             ("T", 1, "Tperm", 3))]:
        print("  - %s: %s" % (label, run(op, inputs, attrs)))


def main():
    print("Measured with TensorFlow %s (CPU, oneDNN as shipped):" % tf.__version__)
    denormals()
    nans_and_zeros()
    integers()
    casts_and_rounding()
    shape_errors()


if __name__ == "__main__":
    main()
