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
import os
import shutil
import sys
import tempfile

import numpy as np


# Element counts of the AddV2/Relu runs: a scalar-like tensor up to 4 MiB of floats.
SIZES = [1, 4, 17, 256, 4096, 1 << 16, 1 << 20]
# Element counts of the tf.function chain.
CHAIN_SIZES = [16, 1 << 18]


def workload(device, judge, repeats=20, ops=("AddV2", "Relu")):
    """Runs the lifetime workload on `device`, calling judge(name, got, want) for each result.

    `repeats` runs of AddV2 and Relu per size, then the chain at each of CHAIN_SIZES. `ops` are
    the kernels the device has among AddV2, Relu and Sub: a device without Relu runs AddV2 alone
    and a chain of additions (consequences.py runs plugins that register AddV2 only)."""
    import tensorflow as tf

    rng = np.random.default_rng(7)
    for n in SIZES:
        for _ in range(repeats):
            a = rng.standard_normal(n).astype(np.float32)
            b = rng.standard_normal(n).astype(np.float32)
            with tf.device(device):
                added = tf.raw_ops.AddV2(x=a, y=b).numpy() if "AddV2" in ops else None
                relu = tf.raw_ops.Relu(features=a).numpy() if "Relu" in ops else None
            if added is not None:
                judge("AddV2 of %d elements" % n, added, a + b)
            if relu is not None:
                judge("Relu of %d elements" % n, relu, np.maximum(a, 0))
    if "AddV2" not in ops:
        return
    full = "Relu" in ops and "Sub" in ops

    @tf.function
    def chain(x, y):
        for _ in range(5):
            x = tf.nn.relu(x + y) - y if full else x + y
        return x

    # Grappler's arithmetic optimizer turns a chain of additions into one AddN, a kernel such a
    # device may lack: off for the additions-only chain, so it runs the kernels it was given.
    options = tf.config.optimizer.get_experimental_options()
    if not full:
        tf.config.optimizer.set_experimental_options({"arithmetic_optimization": False})
    for n in CHAIN_SIZES:
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        with tf.device(device):
            got = chain(tf.constant(a), tf.constant(b)).numpy()
        want = a
        for _ in range(5):
            want = np.maximum(want + b, 0) - b if full else want + b
        judge("a tf.function of %d kernels on %d elements" % (15 if full else 5, n), got, want)
    tf.config.optimizer.set_experimental_options(options)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--device-type", default="REFDEV")
    parser.add_argument("--expect", choices=["correct", "wrong"], required=True)
    args = parser.parse_args()
    # autograph writes a file per traced function into the temporary folder and leaves it there:
    # a folder of our own, removed on the way out, keeps /tmp clean.
    scratch = tempfile.mkdtemp(prefix="lifetimes-")
    os.environ["TMPDIR"] = scratch
    tempfile.tempdir = scratch
    try:
        return run(args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(args):
    import tensorflow as tf
    from tensorflow.python.framework import load_library

    print("TensorFlow %s" % tf.__version__)
    load_library.load_pluggable_device_library(args.plugin)
    tf.config.set_soft_device_placement(False)
    device = "/device:%s:0" % args.device_type
    wrong, total = [], 0

    def judge(name, got, want):
        nonlocal total
        total += 1
        if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
            wrong.append("%s: first elements %s, expected %s" % (name, got[:3], want[:3]))

    workload(device, judge)
    for line in wrong[:5]:
        print("WRONG " + line)
    print("%d of %d results wrong" % (len(wrong), total))
    ok = not wrong if args.expect == "correct" else bool(wrong)
    if not ok:
        print("FAIL: expected %s results" % args.expect)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
