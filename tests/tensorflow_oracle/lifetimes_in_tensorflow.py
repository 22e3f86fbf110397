"""What TensorFlow's own lifetimes do to a plugin's results (tests/deallocate_timing).

usage: python lifetimes_in_tensorflow.py --plugin P.so --device-type REFDEV
           --expect (correct|wrong)

Loads the plugin into TensorFlow (load_pluggable_device_library) and runs, on its device with
soft placement off: AddV2 and Relu on numpy inputs of 1 to 2^20 float elements (20 times each
size), and a tf.function chaining 15 kernels with no host synchronisation between them, at two
sizes. Every result is compared with numpy. TensorFlow frees a kernel's inputs (and a graph's
intermediate tensors) right after queuing the kernel, so a plugin whose deallocate does not keep
queued work's memory intact returns wrong values here.

--expect correct: exit 1 unless every result is right. --expect wrong: exit 1 unless at least
one is wrong (the plugin's verdict says TensorFlow computes garbage with it). Prints
"N of M results wrong" either way.
"""

import argparse
import sys

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--device-type", default="REFDEV")
    parser.add_argument("--expect", choices=["correct", "wrong"], required=True)
    args = parser.parse_args()

    import tensorflow as tf
    from tensorflow.python.framework import load_library

    print("TensorFlow %s" % tf.__version__)
    load_library.load_pluggable_device_library(args.plugin)
    tf.config.set_soft_device_placement(False)
    device = "/device:%s:0" % args.device_type
    rng = np.random.default_rng(7)
    wrong, total = [], 0

    def judge(name, got, want):
        nonlocal total
        total += 1
        if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
            wrong.append("%s: first elements %s, expected %s" % (name, got[:3], want[:3]))

    for n in [1, 4, 17, 256, 4096, 1 << 16, 1 << 20]:
        for _ in range(20):
            a = rng.standard_normal(n).astype(np.float32)
            b = rng.standard_normal(n).astype(np.float32)
            with tf.device(device):
                added = tf.raw_ops.AddV2(x=a, y=b).numpy()
                relu = tf.raw_ops.Relu(features=a).numpy()
            judge("AddV2 of %d elements" % n, added, a + b)
            judge("Relu of %d elements" % n, relu, np.maximum(a, 0))

    @tf.function
    def chain(x, y):
        for _ in range(5):
            x = tf.nn.relu(x + y) - y
        return x

    for n in [16, 1 << 18]:
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        with tf.device(device):
            got = chain(tf.constant(a), tf.constant(b)).numpy()
        want = a
        for _ in range(5):
            want = np.maximum(want + b, 0) - b
        judge("a tf.function of 15 kernels on %d elements" % n, got, want)

    for line in wrong[:5]:
        print("WRONG " + line)
    print("%d of %d results wrong" % (len(wrong), total))
    ok = not wrong if args.expect == "correct" else bool(wrong)
    if not ok:
        print("FAIL: expected %s results" % args.expect)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
