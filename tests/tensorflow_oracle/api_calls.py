"""Which public TensorFlow Python APIs reach which SP_* callbacks: the facts behind
docs/tensorflow/calls.md's "What TensorFlow 2.21 never reaches" and model/tensorflow_reach.h
(on 2.15.1, which refuses the reference plugin, with --target libmock_plugin.so: "What
TensorFlow 2.15 never reaches").

usage: python api_calls.py --wrapper libcall_logging_plugin.so --target libreference_plugin.so
           [--no-bfc] [--log FILE]

Loads call_logging_plugin in front of the target into TensorFlow, runs each API below on the
plugin's device (soft placement off) with a marker line written into the call log before it,
and prints, per API, the callbacks it reached and the sizes allocate was asked for; then every
SP_StreamExecutor callback no API reached. --no-bfc clears use_bfc_allocator
(CALL_LOG_USE_BFC=0), so TensorFlow allocates and deallocates every tensor on its own. An API
the device has no kernel for raises and reaches only what it did before that.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from record_calls import ALL_CALLS  # noqa: E402

# Set in the child (the workload side) only.
tf = None
D = None
T = None
LOG_FD = -1


def mark(name):
    os.write(LOG_FD, ("@@ %s\n" % name).encode())


def copy_small():
    with tf.device(D):
        x = tf.constant(np.arange(5, dtype=np.int8))
    return x.numpy()


def copy_odd():
    with tf.device(D):
        x = tf.identity(tf.constant(np.arange(3, dtype=np.int8)))
    return x.numpy()


def sync_devices():
    with tf.device(D):
        x = tf.constant(np.ones(1 << 16, np.float32))
    tf.test.experimental.sync_devices()
    return None


def memory_info():
    r = tf.config.experimental.get_memory_info(D.replace("/device:", ""))
    return r


def memory_reset():
    tf.config.experimental.reset_memory_stats(D.replace("/device:", ""))


def memory_usage():
    return tf.config.experimental.get_memory_usage(D.replace("/device:", ""))


def variable():
    with tf.device(D):
        v = tf.Variable(np.ones(1000, np.float32))
        v.assign(np.full(1000, 2, np.float32))
        v.assign_add(np.ones(1000, np.float32))
    return v.numpy()[:3]


def function_const():
    @tf.function
    def f():
        return tf.identity(tf.constant(np.arange(12, dtype=np.float32)))
    with tf.device(D):
        return f().numpy()[:3]


def function_add():
    @tf.function
    def f(a, b):
        h = a + b
        return tf.nn.relu(h) + h
    with tf.device(D):
        return f(tf.constant(np.ones(64, np.float32)), tf.constant(np.ones(64, np.float32))).numpy()[:3]


def while_loop():
    @tf.function
    def f(a):
        i = tf.constant(0)
        def body(i, a):
            return i + 1, a + 1.0
        return tf.while_loop(lambda i, a: i < 5, body, [i, a])[1]
    with tf.device(D):
        return f(tf.constant(np.ones(8, np.float32))).numpy()[:3]


def cond():
    @tf.function
    def f(a, p):
        return tf.cond(p, lambda: a + 1.0, lambda: a - 1.0)
    with tf.device(D):
        return f(tf.constant(np.ones(8, np.float32)), tf.constant(True)).numpy()[:3]


def dataset_prefetch():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(32, dtype=np.float32).reshape(8, 4))
    ds = ds.apply(tf.data.experimental.prefetch_to_device(D))
    out = []
    for item in ds:
        out.append(item.numpy())
    return len(out)


def dataset_copy():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(32, dtype=np.float32).reshape(8, 4))
    ds = ds.apply(tf.data.experimental.copy_to_device(D))
    out = []
    with tf.device(D):
        for item in ds:
            out.append(item)
    return len(out)


def huge():
    with tf.device(D):
        x = tf.zeros([1 << 39], tf.float32)  # 2 TiB
    return x.shape


def big_4g():
    with tf.device(D):
        x = tf.zeros([(1 << 30) + 1], tf.float32)  # 4 GiB + 4
    return x.shape


def two_devices():
    with tf.device("/device:%s:0" % T):
        a = tf.identity(tf.constant(np.full(1 << 16, 1, np.float32)))
    with tf.device("/device:%s:1" % T):
        b = tf.identity(tf.constant(np.full(1 << 16, 2, np.float32)))
    return a.numpy()[:2], b.numpy()[:2]


def matmul_read():
    a = np.random.default_rng(1).standard_normal((512, 512)).astype(np.float32)
    with tf.device(D):
        x = tf.constant(a)
        y = tf.linalg.matmul(x, x)
    got = y.numpy()
    return np.abs(got - a @ a).max()


def checkpoint():
    import tempfile
    with tf.device(D):
        v = tf.Variable(np.ones(100, np.float32))
    ck = tf.train.Checkpoint(v=v)
    d = tempfile.mkdtemp()
    p = ck.save(os.path.join(d, "ck"))
    v.assign(np.zeros(100, np.float32))
    ck.restore(p)
    return v.numpy()[:3]


def async_eager():
    tf.config.experimental.set_synchronous_execution(False)
    with tf.device(D):
        x = tf.constant(np.ones(64, np.float32))
        y = x + x
    r = y.numpy()[:3]
    tf.config.experimental.set_synchronous_execution(True)
    return r


def print_op():
    with tf.device(D):
        x = tf.identity(tf.constant(np.ones(4, np.float32)))
    tf.print(x)


def random_op():
    with tf.device(D):
        return tf.random.uniform([16]).numpy()[:2]


def zeros_like():
    with tf.device(D):
        return tf.zeros([16], tf.float32).numpy()[:2]


def profiler():
    import tempfile
    d = tempfile.mkdtemp()
    tf.profiler.experimental.start(d)
    with tf.device(D):
        x = tf.identity(tf.constant(np.ones(64, np.float32)))
        x.numpy()
    tf.profiler.experimental.stop()


def session():
    g = tf.Graph()
    with g.as_default():
        with tf.device(D):
            a = tf.constant(np.ones(64, np.float32))
            b = tf.identity(a) + a
        with tf.compat.v1.Session(graph=g) as s:
            return s.run(b)[:3]


STEPS = [("copy_small", copy_small), ("copy_odd", copy_odd),
                 ("sync_devices", sync_devices), ("memory_info", memory_info),
                 ("memory_reset", memory_reset), ("memory_usage", memory_usage),
                 ("variable", variable), ("function_const", function_const),
                 ("function_add", function_add), ("while_loop", while_loop), ("cond", cond),
                 ("dataset_prefetch", dataset_prefetch), ("dataset_copy", dataset_copy),
                 ("two_devices", two_devices), ("matmul_read", matmul_read),
                 ("checkpoint", checkpoint), ("async_eager", async_eager),
                 ("print_op", print_op), ("random_op", random_op), ("zeros_like", zeros_like),
                 ("session", session), ("profiler", profiler), ("big_4g", big_4g),
                 ("huge", huge)]


def child(plugin):
    """The workload: every API in STEPS, each after its marker."""
    global tf, D, T, LOG_FD
    LOG_FD = os.open(os.environ["CALL_LOG_FILE"], os.O_WRONLY | os.O_APPEND)
    import tensorflow
    from tensorflow.python.framework import load_library
    tf = tensorflow
    mark("load")
    load_library.load_pluggable_device_library(plugin)
    T = sorted({d.device_type for d in tf.config.list_physical_devices()} -
               {"CPU", "GPU", "TPU", "XLA_CPU"})[0]
    tf.config.set_soft_device_placement(False)
    D = "/device:%s:0" % T
    mark("list_logical_devices")
    tf.config.list_logical_devices(T)
    for name, fn in STEPS:
        mark(name)
        try:
            fn()
            print(name, "ok")
        except Exception as error:  # the API's own failure: what it reached still counts
            print(name, "raised", type(error).__name__, str(error).splitlines()[0][:160])
    mark("end")
    sys.stdout.flush()
    os._exit(0)


def summarise(log_path):
    """{api: Counter(callback)} in marker order, and the callbacks no API reached."""
    per_api = collections.OrderedDict()
    api = "before loading"
    for line in open(log_path):
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "@@":
            api = fields[1]
            per_api.setdefault(api, collections.Counter())
            continue
        name = fields[0]
        if name.endswith(".done"):
            continue
        if name == "allocate":
            name = "allocate(%s)" % re.search(r" size=(\d+)", line).group(1)
        if name == "deallocate" and "target=null" in line:
            name = "deallocate(NULL)"
        per_api.setdefault(api, collections.Counter())[name] += 1
    reached = {name.split("(")[0] for counter in per_api.values() for name in counter}
    return per_api, [c for c in ALL_CALLS if c not in reached]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wrapper")
    parser.add_argument("--target")
    parser.add_argument("--no-bfc", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
    log = args.log or tempfile.mkstemp(prefix="api_calls.", suffix=".log")[1]
    open(log, "w").close()
    env = dict(os.environ, CALL_LOG_FILE=log, CALL_LOG_TARGET=os.path.abspath(args.target))
    if args.no_bfc:
        env["CALL_LOG_USE_BFC"] = "0"
    done = subprocess.run([sys.executable, __file__, "--child", os.path.abspath(args.wrapper)],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    print(done.stdout)
    per_api, never = summarise(log)
    for api, counter in per_api.items():
        print("%-22s %s" % (api, ", ".join("%s x%d" % item for item in sorted(counter.items()))))
    print("never reached:", ", ".join(never))
    if not args.log:
        os.unlink(log)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
