"""The reference plugin inside real TensorFlow.

usage: python reference_in_tensorflow.py --plugin libreference_plugin.so
           (--cases DUMP.json | --dump-tool kernel_case_dump) [--device-type REFDEV] [--json OUT]

1. TensorFlow loads the plugin (load_pluggable_device_library) and lists its device.
2. A tensor of every dtype TensorFlow has copies to the device and back bit for bit.
3. Every kernel TensorFlow recorded for the plugin's device type (op x type constraints) runs on
   the device through the eager API, with soft placement off so nothing silently falls back to
   the CPU, and matches TensorFlow's CPU kernel on the same inputs within the kernel scenario's
   tolerance. Inputs: the kernel scenarios' cases (kernel_case_dump) of that op and dtype, or,
   for a cell no scenario covers (Cast's pairs, bool...), the op's cases re-typed.
4. A strided slice and a split of device tensors (views into device memory) copied back.
5. A tf.function on the device (graph execution), a copy between the plugin's two devices, and
   TensorFlow's memory statistics of the device.

Exits 1 on any failure. --expect-load-error pins a TensorFlow that refuses the plugin: 2.15.1,
loaded from Python, fails with "undefined symbol: TF_GetOutputPropertiesListSize" (the graph
optimizer's import). Both wheels define that function only in libtensorflow_cc.so.2, which the
plugin does not link; 2.21.0's Python package evidently makes it visible to plugins, 2.15.1's
does not. record_calls.py runs this same workload through call_logging_plugin.
"""

import argparse
import copy
import json
import subprocess
import sys

import numpy as np

import tf_cases

# Every dtype a tensor of which can be made from numpy (no strings, resources, quantized).
ROUND_TRIP_DTYPES = ["float", "double", "half", "bfloat16", "int8", "int16", "int32", "int64",
                     "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128"]


def load_cases(args):
    if args.cases:
        with open(args.cases) as f:
            return json.load(f)["cases"]
    out = subprocess.run([args.dump_tool], check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)["cases"]


class Results:
    def __init__(self):
        self.passed, self.failed = [], []

    def check(self, name, problem):
        (self.failed if problem else self.passed).append((name, problem))
        if problem:
            print("FAIL %s: %s" % (name, problem))


def round_trip(device, results):
    import tensorflow as tf

    rng = np.random.default_rng(7)
    for name in ROUND_TRIP_DTYPES:
        dtype = getattr(tf, {"float": "float32", "double": "float64", "half": "float16"}.get(
            name, name))
        if name == "bool":
            host = rng.integers(0, 2, size=(3, 5)).astype(np.bool_)
        elif name.startswith("complex"):
            host = (rng.normal(size=(3, 5)) + 1j * rng.normal(size=(3, 5))).astype(
                dtype.as_numpy_dtype)
        else:
            host = rng.integers(0, 100, size=(3, 5)).astype(dtype.as_numpy_dtype)
        with tf.device("/CPU:0"):
            cpu = tf.constant(host, dtype=dtype)
        problem = None
        try:
            on_device = cpu._copy_to_device(full_name(device))
            if not on_device.device.endswith(device.split("device:")[-1]):
                problem = "landed on %s" % on_device.device
            back = on_device._copy_to_device(full_name("/device:CPU:0")).numpy()
            if back.tobytes() != host.tobytes():
                problem = "bytes changed on the way: %r -> %r" % (host.ravel()[:4], back.ravel()[:4])
        except Exception as error:  # any failure of the copy is the finding
            problem = "%s: %s" % (type(error).__name__, error)
        results.check("round_trip.%s" % name, problem)


def full_name(device):
    """"/device:X:0" -> the eager context's full name of that device (for _copy_to_device)."""
    import tensorflow as tf

    suffix = device.split("device:")[-1]
    for logical in tf.config.list_logical_devices():
        if logical.name.endswith("device:" + suffix):
            return logical.name
    raise RuntimeError("no logical device " + device)


def device_kernels(device_type):
    """{(op, ((attr, dtype name), ...)), ...}: the kernels TensorFlow holds for the device."""
    from tensorflow.python.framework import kernels

    cells = set()
    for kernel in kernels.get_all_registered_kernels().kernel:
        if kernel.device_type != device_type:
            continue
        constraint = []
        for c in kernel.constraint:
            types = c.allowed_values.list.type
            if len(types) == 1:
                constraint.append((c.name, tf_cases.ENUM_DTYPE.get(types[0], str(types[0]))))
        cells.add((kernel.op, tuple(sorted(constraint))))
    return cells


def case_types(case):
    return {name: tf_cases.ENUM_DTYPE.get(value["type"]) for name, value in case["attrs"].items()
            if "type" in value}


def retype(case, constraint, op_def, tolerances):
    """A copy of `case` with the constraint's type attrs set and its inputs converted."""
    new = copy.deepcopy(case)
    for attr, dtype in constraint:
        new["attrs"][attr] = {"type": tf_cases.DTYPE_ENUM[dtype]}
    types = case_types(new)
    for arg, tensor in zip(op_def.input_arg, new["inputs"]):
        target = types.get(arg.type_attr) if arg.type_attr else None
        if target and target != tensor["dtype"]:
            values = tf_cases.decode(tensor)
            if target == "bool":
                converted = values.astype(np.float64) != 0
            elif target not in tf_cases.FLOATING:
                finite = np.nan_to_num(values.astype(np.float64), nan=0, posinf=100, neginf=-100)
                converted = np.clip(np.trunc(finite), -100, 100).astype(tf_cases.numpy_dtype(target))
            else:
                converted = values.astype(np.float64).astype(tf_cases.numpy_dtype(target))
            tensor["dtype"], tensor["hex"] = target, converted.tobytes().hex()
    for arg, output in zip(op_def.output_arg, new["outputs"]):
        if arg.type_attr and arg.type_attr in types:
            output["dtype"] = types[arg.type_attr]
    dtype = types.get(new["type_attr"], new["dtype"])
    new["tolerance"] = tolerances.get(dtype, {
        "rtol": 0, "atol": 0, "ulp": {"float": 4, "double": 4, "half": 1, "bfloat16": 1}.get(dtype, 0)})
    new["id"] += " retyped to " + ",".join("%s=%s" % c for c in constraint)
    return new


def own_op_cases(op, constraint):
    """Cases of the plugin's own ops, which TensorFlow's CPU cannot run: each with the CPU ops
    that compute the same thing (`cpu_equivalent`)."""
    if op != "Reference>Scale":
        return []
    dtype = dict(constraint)["T"]
    x = (np.arange(-12, 12, dtype=np.float64) * 0.75).astype(tf_cases.numpy_dtype(dtype))
    case = {"id": "Reference>Scale(x, scale=2.5)", "op": op, "shape_index": 0,
            "attrs": {"T": {"type": tf_cases.DTYPE_ENUM[dtype]}, "scale": {"f": 2.5}},
            "inputs": [{"name": "x", "dtype": dtype, "shape": [4, 6], "hex": x.tobytes().hex()}],
            "outputs": [{"name": "y", "dtype": dtype}],
            "tolerance": {"rtol": 0, "atol": 0, "ulp": 0}}
    scale = np.full([1], 2.5, dtype=tf_cases.numpy_dtype(dtype))
    cpu_equivalent = dict(case, op="Mul", attrs={"T": case["attrs"]["T"]},
                          inputs=case["inputs"] + [{"name": "y", "dtype": dtype, "shape": [1],
                                                    "hex": scale.tobytes().hex()}])
    return [(case, cpu_equivalent)]


def cases_for(op, constraint, cases):
    from tensorflow.python.framework import op_def_registry

    wanted = dict(constraint)
    same_op = [c for c in cases if c["op"] == op and c["reference"]["has_kernel"]]
    exact = [c for c in same_op
             if all(case_types(c).get(attr) == dtype for attr, dtype in wanted.items())]
    if exact or not same_op:
        return exact
    # No scenario covers this cell: the op's first scenario's cases, re-typed.
    op_def = op_def_registry.get(op)
    first = same_op[0]["scenario"]
    # The tolerance an op's scenarios give a dtype (the widest), else the kernel tier's default.
    tolerances = {}
    for c in same_op:
        t = tolerances.setdefault(c["dtype"], c["tolerance"])
        if c["tolerance"]["atol"] > t["atol"]:
            tolerances[c["dtype"]] = c["tolerance"]
    return [retype(c, constraint, op_def, tolerances) for c in same_op if c["scenario"] == first]


def kernels_agree(device, device_type, cases, results):
    cells = sorted(device_kernels(device_type))
    print("%d kernels registered for %s" % (len(cells), device_type))
    for op, constraint in cells:
        name = "kernel.%s.%s" % (op, ",".join("%s=%s" % c for c in constraint))
        op_cases = [(case, case) for case in cases_for(op, constraint, cases)]
        op_cases += own_op_cases(op, constraint)
        if not op_cases:
            results.check(name, "no kernel scenario runs %s: nothing to run it with" % op)
            continue
        problem = None
        for case, cpu_case in op_cases:
            on_device = tf_cases.run_case(case, device)
            on_cpu = tf_cases.run_case(cpu_case, "/CPU:0")
            verdict, detail, _ = tf_cases.judge(case, on_cpu, on_device)
            if verdict != "agree":
                problem = "%s #%d: %s device vs CPU: %s" % (
                    case["id"], case["shape_index"], device_type, detail)
                break
        results.check(name, problem)
    return cells


def views(device, results):
    """Slices and splits: tensors that are views into another tensor's device memory."""
    import tensorflow as tf

    host = np.arange(4 * 6 * 5, dtype=np.float32).reshape(4, 6, 5)
    with tf.device(device):
        x = tf.identity(tf.constant(host))
        parts = tf.split(x, 2, axis=0) if _has_kernel("Split", device) else []
    with tf.device("/CPU:0"):
        checks = [("slice", x[1:3, ::2, 1:].numpy(), host[1:3, ::2, 1:])]
        checks += [("split%d" % i, p.numpy(), host[2 * i:2 * i + 2]) for i, p in enumerate(parts)]
        checks.append(("whole", x.numpy(), host))
    for label, got, want in checks:
        results.check("views." + label, None if np.array_equal(got, want) else "values differ")


def graph_and_devices(device_type, results):
    """A tf.function (graph execution, the plugin's graph optimizer on), a copy between the
    plugin's two devices, and the memory statistics TensorFlow reports for its device."""
    import tensorflow as tf

    a = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    b = np.arange(8, dtype=np.float32).reshape(4, 2) - 3

    @tf.function
    def layer(x, w):
        return tf.nn.relu(tf.matmul(x, w) + 1.0)

    first = "/device:%s:0" % device_type
    with tf.device(first):
        got = layer(tf.constant(a), tf.constant(b))
    want = np.maximum(a @ b + 1.0, 0)
    results.check("graph.function", None if np.allclose(got.numpy(), want) else "values differ")

    second = "/device:%s:1" % device_type
    if len(tf.config.list_logical_devices(device_type)) > 1:
        with tf.device(first):
            x = tf.identity(tf.constant(a))
        y = x._copy_to_device(full_name(second))
        with tf.device(second):
            z = tf.identity(y)
        results.check("devices.copy_between",
                      None if np.array_equal(z.numpy(), a) and z.device.endswith(":1")
                      else "values or device differ (%s)" % z.device)
    try:
        info = tf.config.experimental.get_memory_info("%s:0" % device_type)
        results.check("memory_info", None if info["current"] >= 0 else "negative usage")
    except Exception as error:  # TensorFlow may not support it for the device: a fact, not a failure
        print("note: get_memory_info: %s: %s" % (type(error).__name__, error))


def _has_kernel(op, device):
    from tensorflow.python.framework import kernels

    device_type = device.split("device:")[-1].split(":")[0]
    return any(k.device_type in (device_type, "DEFAULT")
               for k in kernels.get_registered_kernels_for_op(op).kernel)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cases")
    source.add_argument("--dump-tool")
    parser.add_argument("--device-type", default="REFDEV")
    parser.add_argument("--json")
    parser.add_argument("--expect-load-error", metavar="TEXT",
                        help="this TensorFlow is known to refuse the plugin with an error "
                             "containing TEXT: pass when it does, fail when it loads")
    args = parser.parse_args()
    cases = load_cases(args)

    import tensorflow as tf
    from tensorflow.python.framework import load_library

    results = Results()
    print("TensorFlow %s" % tf.__version__)
    try:
        load_library.load_pluggable_device_library(args.plugin)
    except Exception as error:
        if args.expect_load_error and args.expect_load_error in str(error):
            print("TensorFlow %s refuses the plugin, as expected: %s: %s" % (
                tf.__version__, type(error).__name__, error))
            return 0
        print("FAIL load: %s: %s" % (type(error).__name__, error))
        return 1
    if args.expect_load_error:
        print("FAIL load: the plugin loaded, but it was expected to fail with %r: update the "
              "test" % args.expect_load_error)
        return 1
    devices = tf.config.list_physical_devices(args.device_type)
    results.check("load.device_listed",
                  None if devices else "no %s device listed" % args.device_type)
    if not devices:
        return 1
    tf.config.set_soft_device_placement(False)
    device = "/device:%s:0" % args.device_type
    round_trip(device, results)
    kernels_agree(device, args.device_type, cases, results)
    views(device, results)
    graph_and_devices(args.device_type, results)
    print("%d checks passed, %d failed" % (len(results.passed), len(results.failed)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tensorflow": tf.__version__, "passed": [n for n, _ in results.passed],
                       "failed": dict(results.failed)}, f, indent=1)
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
