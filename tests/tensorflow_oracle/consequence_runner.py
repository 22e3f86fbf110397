"""The standard workload of consequences.py, run on one plugin inside real TensorFlow.

usage (by consequences.py, never by hand): python consequence_runner.py --cases DUMP.json
    [--stall SECONDS] [--limit SECONDS] [--record-dump-tool record_case_dump]

A fork server: it imports TensorFlow once (about 3 s of a 2-core machine), then reads one JSON
request per line on stdin, {"id", "plugin", "log", "runs"}, and runs each in a child forked from
itself, so every plugin gets a TensorFlow of its own, loaded into nothing else, without paying
for the import 80 times. Nothing of TensorFlow's runtime exists before the fork (no context,
no device, no op run): the import only. Each child's stdout and stderr go to the request's log
file (TensorFlow's fatal messages land there), and it reports what it does as JSON lines on a
pipe: {"at": ...} before each item, {"run": n} before each run of the workload after loading
("runs" of them, the same inputs each time), {"finding": ...} (the first ends the workload),
{"refused": ...}, {"alive": true} (a call within an item returned, at most once a second),
{"done": true}. The server kills a child whose pipe stays silent for --stall seconds: one call
into TensorFlow that has not returned for that long is a hang, however long the workload has
run. A plugin whose every call is slow but returns is not one (installed_deaths/
addv2_slow_in_tensorflow, 1 s an AddV2: 356 s for the whole workload on 2.21.0), so
the session has no time limit of its own but --limit, a backstop far above any correct
workload measured. It reaps the child and answers with one JSON line on stdout:
{"id", "events", "exit", "signal", "killed", "seconds"}. consequences.py classifies that.

The workload, on the device the plugin adds, soft placement off (nothing falls back to the CPU):
  load      load_pluggable_device_library, the plugin's device listed
  copies    10 dtypes x 3 size classes (empty, under 64 bytes, 256 Ki elements) to the device
            and back, bit for bit; a tf.Variable on the device assigned and read
  graphs    with TF_InitGraph exported: the graph tier's graphs (an Identity chain fetched at
            its end and middle, one with a kept node) as tf.functions on the device, which
            grappler hands to the plugin's optimizer; each must give its input back
  profiler  with TF_InitProfiler exported: tf.profiler.experimental.start and stop around an
            Identity on the device (the plugin's start, stop and collect_data_xspace); when the
            saved trace has no plane but TensorFlow's own, the plugin's profiler once more by
            itself (ctypes): non-empty bytes that are no XSpace mean the device's trace was lost
  kernels   every kernel TensorFlow holds for the device type on the kernel scenarios' cases,
            against TensorFlow's CPU (reference_in_tensorflow.py's machinery and rule)
  held      AddV2 on device tensors the program still holds: each keeps its values (a kernel
            that writes into an input TensorFlow did not grant it shows here)
  threads   AddV2 from two Python threads at once, CONCURRENT_STEPS each: eager execution
            caches one kernel per op, attrs and device, so both threads run the same kernel
            object (a kernel keeping per-call state in it gives one thread the other's sum)
  function  a tf.function on the device: a residual block (AddV2, Relu) where it has those,
            else Identity and Reshape (kernels TensorFlow gives every device)
  constant  a tf.function returning a 1 MiB constant made on the device (its bytes pass
            through the pinned buffer of host_memory_allocate)
  chains    each float elementwise kernel of the device the kernel scenarios cover feeding
            AddV2, eager with no host synchronisation between the two (TensorFlow's eager
            executor queues the second right behind the first), then the same as a tf.function
  between   a copy from the device's ordinal 0 to ordinal 1, when it has two, and tensors on
            both ordinals kept alive together, each read back
  lifetimes lifetimes_in_tensorflow.py's AddV2/Relu runs, LIFETIME_REPEATS per size, and its
            tf.function chain
  memory    AddV2 into holes between live tensors, MEMORY_STEPS AddV2 whose memory in use must
            not grow, and an AddV2 whose result does not fit the device (memory())
  recorded  every kernel of the device whose op no kernel scenario covers, on the recorded
            oracle's cases (recorded_in_tensorflow.py; with --record-dump-tool only)
  fraction  once, after the runs: a copy onto the device in a tf.compat.v1 Session whose
            options set per_process_gpu_memory_fraction, in a process forked before the plugin
            loaded (memory_fraction.py: TensorFlow then sizes the device from *total)
A plugin TensorFlow lists no device for (get_device_count 0, or a CPU kernel plugin without
SE_InitPlugin) runs instead, on TensorFlow's CPU device: on_cpu (AddV2, Sub, Mul, Relu, Relu6,
Floor, Neg, Abs, Square, Tanh, MatMul against NumPy, and the residual block as a tf.function;
a CPU kernel plugin's kernels, of a priority above TensorFlow's own, are the ones that run),
then graphs and profiler as above. A request's "env" is set before the plugin loads (the mock
plugin's MOCK_PLUGIN_CONFIG).
"""

import argparse
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
import traceback

import numpy as np

import memory_fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

COPY_DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int32", "int64", "uint8",
               "bool", "complex64"]
# Element counts: nothing at all, a tensor under 64 bytes in every dtype above, and a large one.
SIZE_CLASSES = [("empty", 0), ("small", 5), ("large", 1 << 18)]
# lifetimes_in_tensorflow.py runs each size 20 times; at_once shows wrong values on every one
# of them, so two keep the workload small and still repeat each size.
LIFETIME_REPEATS = 2
# Ops whose result's zero sign IEEE arithmetic defines; elsewhere (LogSoftmax, reductions) the
# sign of a zero result is the implementation's. The kernel tier's list
# (OpDefinesZeroSign, harness/kernels/host_tensor.cc).
ZERO_SIGN_OPS = {"AddV2", "Sub", "Mul", "RealDiv", "Neg", "Abs", "Square", "Sqrt", "Tanh",
                 "BiasAdd", "Identity", "Fill", "Transpose", "ZerosLike"}
# AddV2 steps on fresh inputs whose memory in use must not grow.
MEMORY_STEPS = 50
# Tensors of 256 KiB kept alive on each of two devices at once (4 MiB a device).
ALIVE_TOGETHER = 16
# AddV2 steps of each of the two threads running the same eager kernel at once. A kernel that
# keeps its work arguments in the kernel object (kernel_defects/shared_scratch) gave 44 and 35
# wrong sums of 500 on 2.21.0; the correct one none.
CONCURRENT_STEPS = 200
# The server's answer channel (a copy of its stdout), closed in every child.
ANSWERS_FD = -1
# Elementwise float ops whose result chains() feeds into AddV2: the op's name in tf.raw_ops and
# its input's name. A large input, so that the first kernel's queued work is still running when
# the second one starts (a kernel reading its inputs ahead of its stream reads them unwritten).
CHAIN_OPS = [("Relu", "features"), ("Relu6", "features"), ("LeakyRelu", "features"),
             ("Elu", "features"), ("Floor", "x"), ("Neg", "x"), ("Abs", "x"), ("Square", "x"),
             ("Tanh", "x"), ("Sigmoid", "x"), ("Exp", "x")]
CHAIN_ELEMENTS = 1 << 18
# Elements of the float constant of constant_in_function (1 MiB). Measured on 2.21.0 with a
# wiretap that fills host_memory_allocate's memory with a canary: a graph constant placed on the
# device is written whole, from offset 0, into the pinned buffer (one 2 MiB buffer, a 4 MiB one
# once a constant needs more), then memcpy_htod copies it from there; eager copies, variables and
# Identity/Reshape functions write at most 8 bytes of it. A host_memory_allocate handing out 64
# bytes (runtime_defects/host_alloc_small) then has TensorFlow write 1 MiB past its end: SIGSEGV
# or glibc's heap-corruption abort in 6 of 6 runs at this size, some runs at 16 KiB.
CONSTANT_ELEMENTS = 1 << 18
# record_case_dump, which makes the recorded oracle's inputs again (--record-dump-tool), and the
# release whose record judges them: the recorded step runs only with both.
RECORD_DUMP_TOOL = None
# --stall: the fraction step waits for its probe at most three quarters of it (the wait sends
# nothing, so it must end before the server's allowance does).
STALL = 15.0
RECORD_RELEASE = "2.21.0"
# Device types TensorFlow has without any plugin.
BUILT_IN_TYPES = {"CPU", "GPU", "TPU", "TPU_SYSTEM", "XLA_CPU", "XLA_GPU"}


class Found(BaseException):
    """Ends the workload at its first finding: that one decides the outcome, and the rest
    would only cost time (an allocation TensorFlow cannot serve is retried for 10 s). A
    BaseException, so the steps' handlers of TensorFlow's errors let it through."""


class Reporter:
    """The child's side of the pipe: one JSON object per line, flushed at once, so the server
    knows the item in flight when the child dies or stops."""

    def __init__(self, fd):
        self.out = os.fdopen(fd, "w", buffering=1)
        self.started = self.last_alive = time.monotonic()

    def send(self, **event):
        event["t"] = round(time.monotonic() - self.started, 3)  # for --answers: where time goes
        self.out.write(json.dumps(event) + "\n")

    def at(self, what):
        self.send(at=what)

    def alive(self):
        """Progress within an item (a kernel case done, a step of a loop), at most one line a
        second: a plugin whose every call is slow but returns is not a hang
        (installed_deaths/addv2_slow_in_tensorflow: 1 s an AddV2, correct). Sent only after a
        call returned, never on a timer: the --stall allowance is per call."""
        if time.monotonic() - self.last_alive >= 1:
            self.last_alive = time.monotonic()
            self.send(alive=True)

    def finding(self, kind, where, detail):
        self.send(finding={"kind": kind, "where": where, "detail": str(detail)[:300]})
        raise Found()


def error_text(error):
    """The error's class and message on one line (graph errors open with a line that says
    only "Graph execution error:"), shortened."""
    text = " ".join(str(getattr(error, "message", error)).split())
    text = text.replace("Graph execution error: ", "")
    return "%s: %s" % (type(error).__name__, text[:240])


def copies(tf, device, report):
    rng = np.random.default_rng(11)
    for dtype_name in COPY_DTYPES:
        dtype = getattr(tf, dtype_name)
        for label, count in SIZE_CLASSES:
            where = "copy %s %s (%d elements)" % (dtype_name, label, count)
            report.at(where)
            if dtype_name == "bool":
                host = rng.integers(0, 2, size=count).astype(np.bool_)
            elif dtype_name.startswith("complex"):
                host = (rng.normal(size=count) + 1j * rng.normal(size=count)).astype(
                    dtype.as_numpy_dtype)
            else:
                host = rng.integers(0, 100, size=count).astype(dtype.as_numpy_dtype)
            try:
                with tf.device("/CPU:0"):
                    cpu = tf.constant(host, dtype=dtype)
                on_device = cpu._copy_to_device(full_name(tf, device))
                back = on_device._copy_to_device(full_name(tf, "/device:CPU:0")).numpy()
                if back.tobytes() != host.tobytes():
                    report.finding("wrong values", where, "bytes changed on the way")
            except Exception as error:  # any failure of a copy is the finding
                report.finding("error", where, error_text(error))
    where = "tf.Variable assigned and read"
    report.at(where)
    first = rng.standard_normal(1 << 16).astype(np.float32)
    second = rng.standard_normal(1 << 16).astype(np.float32)
    try:
        with tf.device(device):
            variable = tf.Variable(first)
            variable.assign(second)
            value = variable.read_value()
        if value.numpy().tobytes() != second.tobytes():
            report.finding("wrong values", where, "read back other values")
    except Exception as error:
        report.finding("error", where, error_text(error))


def full_name(tf, device):
    """"/device:X:0" -> the eager context's full name of that device (for _copy_to_device)."""
    suffix = device.split("device:")[-1]
    for logical in tf.config.list_logical_devices():
        if logical.name.endswith("device:" + suffix):
            return logical.name
    raise RuntimeError("no logical device " + device)


# TensorFlow's CPU outcome of each case, kept across the runs of one child: the inputs repeat.
CPU_OUTCOMES = {}


def kernels(device, cells, cases, report):
    """Every kernel of the device (`cells`) against the CPU: reference_in_tensorflow's cases,
    tf_cases' comparison (the kernel tier's rule)."""
    import reference_in_tensorflow as reference
    import tf_cases

    for op, constraint in sorted(cells):
        where = "kernel %s %s" % (op, ",".join("%s=%s" % c for c in constraint))
        report.at(where)
        op_cases = [(case, case) for case in reference.cases_for(op, constraint, cases)]
        op_cases += reference.own_op_cases(op, constraint)
        for case, cpu_case in op_cases:  # a cell no case covers runs nothing: not a finding
            report.alive()
            on_device = tf_cases.run_case(case, device)
            key = json.dumps([cpu_case[k] for k in ("op", "id", "shape_index", "attrs")],
                             sort_keys=True)
            if key not in CPU_OUTCOMES:
                CPU_OUTCOMES[key] = tf_cases.run_case(cpu_case, "/CPU:0")
            on_cpu = CPU_OUTCOMES[key]
            verdict, detail, note = tf_cases.judge(case, on_cpu, on_device)
            if verdict == "agree" and note and "zero sign differs" in note and \
                    op in ZERO_SIGN_OPS:
                # tf_cases lets a signed zero pass and notes it; where IEEE arithmetic defines
                # the sign (-0 + -0 is -0, and 1/x tells them apart) it is a wrong value.
                verdict, detail = "disagree", note
            if verdict != "agree":
                # The device failing where the CPU computes is an error; any other difference
                # (values, a result where the CPU refuses) is wrong values.
                kind = "error" if on_device[0] == "error" and on_cpu[0] == "ok" else "wrong values"
                report.finding(kind, where, "%s: %s" % (case["id"], detail))
                break


def device_kernels(device_type):
    """{(op, ((attr, dtype), ...))}: the kernels TensorFlow holds for the device type, named as
    reference_in_tensorflow.device_kernels names them, less those registered under a label:
    TensorFlow runs a labelled kernel only for a node asking for that label (`_kernel`), which
    no op of this workload does (kernel_defects/label_only registers nothing else). One pass
    over the registry (each costs 35 ms)."""
    import tf_cases
    from tensorflow.python.framework import kernels as registry

    cells = set()
    for kernel in registry.get_all_registered_kernels().kernel:
        if kernel.device_type != device_type or kernel.label:
            continue
        cells.add((kernel.op, tuple(sorted(
            (c.name, tf_cases.ENUM_DTYPE.get(c.allowed_values.list.type[0],
                                             str(c.allowed_values.list.type[0])))
            for c in kernel.constraint if len(c.allowed_values.list.type) == 1))))
    return cells


def held_inputs(tf, device, ops, report):
    """AddV2 of two device tensors the program still holds. TensorFlow never grants a held
    tensor's buffer to an output (measured on 2.21: eager AddV2 allocates anew), so both must
    read what they held before, whatever the kernel did with its inputs."""
    if "AddV2" not in ops:
        return
    where = "AddV2 on held tensors, which keep their values"
    report.at(where)
    x_values = np.array([1, 2, 3], dtype=np.float32)
    y_values = np.array([10, 20, 30], dtype=np.float32)
    try:
        with tf.device(device):
            x = tf.identity(tf.constant(x_values))
            y = tf.identity(tf.constant(y_values))
            total = x + y
        if not np.array_equal(total.numpy(), x_values + y_values):
            report.finding("wrong values", where, "AddV2 gave %s" % total.numpy())
        for name, tensor, values in (("x", x, x_values), ("y", y, y_values)):
            if not np.array_equal(tensor.numpy(), values):
                report.finding("wrong values", where, "the caller's %s reads %s after x + y, "
                               "expected %s" % (name, tensor.numpy(), values))
    except Exception as error:
        report.finding("error", where, error_text(error))


def two_threads(tf, device, ops, report):
    """AddV2 on the device from two Python threads at once, each on values of its own."""
    import threading

    if "AddV2" not in ops:
        return
    where = "AddV2 from two threads at once"
    report.at(where)
    wrong, errors = [None, None], [None, None]
    steps_done = [0, 0]  # the main thread reports progress only when a step returned
    barrier = threading.Barrier(2)

    def run(thread):
        try:
            rng = np.random.default_rng(17 + thread)
            with tf.device(device):
                x = tf.identity(tf.constant(rng.standard_normal(4096).astype(np.float32)))
                y = tf.identity(tf.constant(np.full(4096, thread + 1, dtype=np.float32)))
            want = x.numpy() + y.numpy()
            barrier.wait()
            for step in range(CONCURRENT_STEPS):
                with tf.device(device):
                    got = (x + y).numpy()
                steps_done[thread] += 1
                if not np.array_equal(got, want):
                    wrong[thread] = "thread %d, step %d: %s, expected %s" % (
                        thread, step, got[:2], want[:2])
                    return
        except Exception as error:  # reported from the main thread, which owns the pipe
            errors[thread] = error_text(error)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(2)]
    for thread in threads:
        thread.start()
    seen = 0
    for thread in threads:
        while thread.is_alive():  # the main thread owns the pipe: it says the steps return
            thread.join(1)
            if sum(steps_done) > seen:  # a thread stuck in one call stays silent: a hang
                seen = sum(steps_done)
                report.alive()
    for error in errors:
        if error:
            report.finding("error", where, error)
    for detail in wrong:
        if detail:
            report.finding("wrong values", where, detail)


def float_ops(cells):
    """The ops among AddV2, Relu and Sub with a float kernel."""
    return {op for op, constraint in cells
            if op in ("AddV2", "Relu", "Sub") and dict(constraint).get("T") == "float"}


def function(tf, device, ops, report):
    """A tf.function on the device. With AddV2 and Relu a residual block, h = x + y and
    relu(h) + h: h has two consumers, so a kernel writing into its input corrupts the other's
    (an additions-only device gets lifetimes_in_tensorflow's chain instead). Without AddV2,
    Identity and Reshape, whose kernels TensorFlow registers for every device."""
    if "AddV2" in ops and "Relu" not in ops:
        return
    rng = np.random.default_rng(13)
    if "AddV2" in ops:
        where = "tf.function of a residual block (AddV2, Relu, AddV2)"
        x = rng.standard_normal(4096).astype(np.float32)
        y = rng.standard_normal(4096).astype(np.float32)
        want = np.maximum(x + y, 0) + (x + y)

        @tf.function
        def block(a, b):
            h = a + b
            return tf.nn.relu(h) + h
    else:
        where = "tf.function of Identity and Reshape"
        x = y = np.arange(4 * 6, dtype=np.float32).reshape(4, 6)
        want = x.reshape(6, 4)

        @tf.function
        def block(a, _):
            return tf.identity(tf.reshape(tf.identity(a), [6, 4]))
    report.at(where)
    try:
        with tf.device(device):
            got = block(tf.constant(x), tf.constant(y)).numpy()
        if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
            report.finding("wrong values", where, "first elements %s, expected %s" % (
                got.ravel()[:3], want.ravel()[:3]))
    except Exception as error:
        report.finding("error", where, error_text(error))


def constant_in_function(tf, device, report):
    """A tf.function whose result is a large constant placed on the device: TensorFlow makes
    the constant's tensor in the device's pinned host memory (host_memory_allocate) and copies
    it to the device from there. Const and Identity are kernels TensorFlow gives every device."""
    where = "tf.function returning a 1 MiB constant made on the device"
    report.at(where)
    values = np.random.default_rng(19).standard_normal(CONSTANT_ELEMENTS).astype(np.float32)

    @tf.function
    def constant():
        return tf.identity(tf.constant(values))

    try:
        with tf.device(device):
            got = constant().numpy()
        if got.tobytes() != values.tobytes():
            bad = int(np.argmax(got != values))
            report.finding("wrong values", where, "element %d: %s, expected %s" % (
                bad, got[bad], values[bad]))
    except Exception as error:
        report.finding("error", where, error_text(error))


def chains(tf, device, cells, cases, report):
    """Kernels chained on the device without a host synchronisation, as a program runs them:
    for each op of CHAIN_OPS the device has a float kernel for, AddV2(op(x), y), eagerly (the
    executor queues AddV2 while op's work may still be queued on the stream) and as a
    tf.function, against the CPU. Only ops the kernel scenarios cover, like the kernels step:
    the chain is about ordering, and an op's own values are the kernel step's to judge (an op no
    scenario covers is judged by --tensorflow's generated cases, not by the default tiers)."""
    covered = {case["op"] for case in cases}
    have = {op for op, constraint in cells
            if dict(constraint).get("T") == "float" and op in covered}
    if "AddV2" not in have:
        return
    rng = np.random.default_rng(17)
    x = rng.standard_normal(CHAIN_ELEMENTS).astype(np.float32)
    y = rng.standard_normal(CHAIN_ELEMENTS).astype(np.float32)
    for op, arg in CHAIN_OPS:
        if op not in have:
            continue
        first = getattr(tf.raw_ops, op)

        def chain(a, b, first=first, arg=arg):
            return tf.raw_ops.AddV2(x=first(**{arg: a}), y=b)

        with tf.device("/CPU:0"):
            want = chain(tf.constant(x), tf.constant(y)).numpy()
        for label, run in (("eager", chain), ("tf.function", tf.function(chain))):
            where = "chain %s -> AddV2 (%s)" % (op, label)
            report.at(where)
            try:
                with tf.device(device):
                    got = run(tf.constant(x), tf.constant(y)).numpy()
            except Exception as error:
                report.finding("error", where, error_text(error))
            if not np.allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True):
                bad = int(np.argmax(~np.isclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)))
                report.finding("wrong values", where, "element %d: %s, expected %s" % (
                    bad, got[bad], want[bad]))


def between(tf, device_type, report):
    if len(tf.config.list_logical_devices(device_type)) < 2:
        return
    where = "copy %s:0 -> %s:1" % (device_type, device_type)
    report.at(where)
    host = np.arange(1 << 16, dtype=np.float32)
    try:
        with tf.device("/device:%s:0" % device_type):
            x = tf.identity(tf.constant(host))
        y = x._copy_to_device(full_name(tf, "/device:%s:1" % device_type))
        if not y.device.endswith(":1") or y.numpy().tobytes() != host.tobytes():
            report.finding("wrong values", where, "values or device differ (%s)" % y.device)
    except Exception as error:
        report.finding("error", where, error_text(error))
    # The same copy of a tensor that does not start the device's memory: with a tensor kept
    # alive before it, BFC carves it out further into its region, so memcpy_dtod gets an address
    # inside the allocation (the copy above may get the region's start: every earlier tensor was
    # freed by then). scenario_defects/dtod_ignores_src_offset copies from the start instead.
    where = "copy %s:0 -> %s:1 of a tensor behind another one kept alive" % (
        device_type, device_type)
    report.at(where)
    try:
        with tf.device("/device:%s:0" % device_type):
            ahead = tf.identity(tf.constant(np.full(1 << 16, -1, dtype=np.float32)))
            x = tf.identity(tf.constant(host[::-1].copy()))
        y = x._copy_to_device(full_name(tf, "/device:%s:1" % device_type))
        if not y.device.endswith(":1") or y.numpy().tobytes() != host[::-1].tobytes():
            report.finding("wrong values", where, "values or device differ (%s): %s" % (
                y.device, y.numpy()[:2]))
        del ahead
    except Exception as error:
        report.finding("error", where, error_text(error))
    # Both devices' memory in use at once, as a model split over two devices has it: tensors on
    # :0 and :1, alive together, each keep their own values (two devices handing out the same
    # memory show here; the copy above cannot, since a copy onto itself reads right).
    where = "tensors on %s:0 and %s:1 alive together" % (device_type, device_type)
    report.at(where)
    try:
        kept = []
        for i in range(ALIVE_TOGETHER):
            for ordinal in (0, 1):
                values = np.full(1 << 16, 1000 * ordinal + i, dtype=np.float32)
                with tf.device("/device:%s:%d" % (device_type, ordinal)):
                    kept.append((tf.identity(tf.constant(values)), values))
        for tensor, values in kept:
            if tensor.numpy().tobytes() != values.tobytes():
                report.finding("wrong values", where, "a tensor on %s holds %s, expected %s" % (
                    tensor.device, tensor.numpy()[:2], values[:2]))
    except Exception as error:
        report.finding("error", where, error_text(error))


def lifetimes(device, ops, report):
    import lifetimes_in_tensorflow

    if "AddV2" not in ops:
        return

    def judge(name, got, want):
        report.at("lifetimes: " + name)
        if not np.allclose(got, want, rtol=1e-6, atol=1e-6):
            report.finding("wrong values", "lifetimes: " + name,
                           "first elements %s, expected %s" % (got[:3], want[:3]))

    try:
        lifetimes_in_tensorflow.workload(device, judge, repeats=LIFETIME_REPEATS,
                                         ops=tuple(sorted(ops)))
    except Exception as error:
        report.finding("error", "lifetimes", error_text(error))


def memory(tf, device, ops, report):
    """What a long-running program does to device memory, with float AddV2 (BFC's statistics
    are what get_memory_info reads, so a plugin without the BFC allocator shows no growth):
      fragmented  AddV2 of 64 floats (256 bytes, a BFC chunk exactly) into the holes between
                  live tensors: each neighbour keeps its values
      growth      the same AddV2 on fresh inputs MEMORY_STEPS times, every result dropped:
                  TensorFlow's memory in use stays where it was
      exhausted   AddV2 of a 2^15 x 1 and a 1 x 2^15 tensor, whose 4 GiB result fits no device
                  of the project's (1 GiB each): TensorFlow raises ResourceExhaustedError"""
    if "AddV2" not in ops:
        return
    ones = np.ones(64, dtype=np.float32)
    where = "AddV2 into holes between live tensors"
    report.at(where)
    try:
        with tf.device(device):
            tensors = [tf.identity(tf.constant(np.full(64, 7 + i, dtype=np.float32)))
                       for i in range(64)]
        kept = [(t, 7 + i) for i, t in enumerate(tensors) if i % 2]
        del tensors  # every other one freed: 256-byte holes between live tensors
        for _ in range(16):
            with tf.device(device):
                result = tf.constant(ones) + tf.constant(ones)
            report.alive()
            if result.numpy().tobytes() != (ones + ones).tobytes():
                report.finding("wrong values", where, "AddV2 gave %s" % result.numpy()[:2])
        for tensor, value in kept:
            if not (tensor.numpy() == value).all():
                report.finding("wrong values", where, "a live neighbour holds %s, expected %s" % (
                    tensor.numpy()[:2], value))
    except Exception as error:
        report.finding("error", where, error_text(error))
    where = "AddV2 %d times, results dropped" % MEMORY_STEPS
    report.at(where)
    try:
        name = device.replace("/device:", "")
        inputs = np.ones(1 << 16, dtype=np.float32)
        with tf.device(device):
            (tf.constant(inputs) + tf.constant(inputs)).numpy()
        before = tf.config.experimental.get_memory_info(name)["current"]
        for _ in range(MEMORY_STEPS):
            with tf.device(device):
                (tf.constant(inputs) + tf.constant(inputs)).numpy()
            report.alive()
        grown = tf.config.experimental.get_memory_info(name)["current"] - before
        if grown >= MEMORY_STEPS * inputs.nbytes // 2:
            report.finding("growing memory", where, "memory in use grew by %d bytes (%d a step)"
                           % (grown, grown // MEMORY_STEPS))
    except Exception as error:
        report.finding("error", where, error_text(error))
    if tuple(int(part) for part in tf.__version__.split(".")[:2]) < (2, 16):
        # Skipped on 2.15.1 since a run of 170 s there, which was not TensorFlow's: the example
        # plugin built 16 GiB of host offset tables before asking for its output. TensorFlow
        # itself, measured with the 4 GiB AddV2 on 2.21.0 and 2.15.1 alike: 10.0 s with the BFC
        # allocator (its retry loop), 0.0 s without it (the Simple allocator does not retry).
        # The skip stays until the 2.15.1 rows that reach this item are measured with it.
        return
    where = "AddV2 broadcast to 4 GiB"
    report.at(where)
    try:
        column = np.ones((1 << 15, 1), dtype=np.float32)
        with tf.device(device):
            total = tf.constant(column) + tf.constant(column.T)  # 2^30 floats: no 1 GiB device
        report.finding("wrong values", where, "a 4 GiB result of shape %s on a device of "
                       "1 GiB" % total.shape)
    except tf.errors.ResourceExhaustedError:
        pass  # what TensorFlow owes a program that does not fit
    except Exception as error:
        report.finding("error", where, error_text(error))


def recorded(device, cells, cases, release, report):
    """The kernels no kernel scenario covers (the kernels step runs no case of theirs), on the
    recorded oracle's cases of their cell, against the recorded values of TensorFlow's CPU."""
    import recorded_in_tensorflow as recorded_cases
    import tf_cases

    if not RECORD_DUMP_TOOL:
        return
    covered = {case["op"] for case in cases}
    records = {}
    for op in sorted({op for op, _ in cells} - covered):
        record = recorded_cases.read_record(release, op)
        if record is not None:
            records[op] = record
    if not records:
        return
    report.at("recorded cases: generating the inputs of %d ops" % len(records))
    by_op = recorded_cases.dump_cases(RECORD_DUMP_TOOL, records)
    for op, constraint in sorted(cells):
        if op not in records:
            continue
        where = "recorded cases of %s %s" % (op, ",".join("%s=%s" % c for c in constraint))
        report.at(where)
        for case in by_op.get(op, []):
            if not recorded_cases.case_matches(case, constraint):
                continue
            expected = recorded_cases.recorded_outcome(records[op], case)
            if expected is None:
                continue
            try:
                on_device = tf_cases.run_case(case, device)
            except Exception:  # TensorFlow's Python refuses the case: nothing ran
                continue
            report.alive()
            problem = recorded_cases.wrong_values(case, expected, on_device)
            if problem and not recorded_cases.excused(case, by_op[op], records[op], on_device):
                report.finding("wrong values", where, "%s #%d: %s" % (
                    case["id"], case["shape_index"], problem))


def workload(plugin, runs, cases, report):
    import tensorflow as tf
    from tensorflow.python.framework import load_library

    from tensorflow.python.framework import kernels as registry

    entry_points = exported_entry_points(plugin)
    kernels_before = len(registry.get_all_registered_kernels().kernel)
    report.at("load")
    try:
        load_library.load_pluggable_device_library(plugin)
        types = sorted({d.device_type for d in tf.config.list_physical_devices()} - BUILT_IN_TYPES)
    except Exception as error:  # TensorFlow's Python refuses the library
        report.send(refused=error_text(error))
        return
    if not types and len(registry.get_all_registered_kernels().kernel) == kernels_before and \
            not entry_points & {"TF_InitGraph", "TF_InitProfiler"}:
        # Loaded, and nothing of it in TensorFlow: no device, no kernel, no optimizer, no
        # profiler (npd_plugin/host_npd_plugin: TFNPD_InitPlugin without GetPjrtApi).
        report.finding("nothing registered", "load", "TensorFlow loaded the library and lists "
                       "no device, no kernel, no optimizer and no profiler of it")
    if not types:
        # No device of its own (get_device_count 0, or a CPU kernel plugin without
        # SE_InitPlugin): what TensorFlow still runs, ops on its CPU device, with the plugin's
        # CPU kernels and optimizer where it has them.
        report.send(device_type=None)
        for run in range(1, runs + 1):
            report.send(run=run)
            on_cpu(tf, report)
            graphs(tf, "/CPU:0", entry_points, report)
            profiler(tf, plugin, "/CPU:0", entry_points, report)
        return
    device_type = types[0]
    report.send(device_type=device_type)
    tf.config.set_soft_device_placement(False)
    device = "/device:%s:0" % device_type
    cells = device_kernels(device_type)
    ops = float_ops(cells)
    for run in range(1, runs + 1):  # the same inputs each run: only TensorFlow's timing varies
        report.send(run=run)
        copies(tf, device, report)
        graphs(tf, device, entry_points, report)
        profiler(tf, plugin, device, entry_points, report)
        kernels(device, cells, cases, report)
        held_inputs(tf, device, ops, report)
        two_threads(tf, device, ops, report)
        function(tf, device, ops, report)
        constant_in_function(tf, device, report)
        chains(tf, device, cells, cases, report)
        between(tf, device_type, report)
        lifetimes(device, ops, report)
        memory(tf, device, ops, report)
        recorded(device, cells, cases, RECORD_RELEASE, report)


def exported_entry_points(plugin):
    """The plugin's exported TF_Init* functions (nm -D), read before TensorFlow loads it: the
    graph and profiler steps run only for a plugin that has the module they drive."""
    listed = subprocess.run(["nm", "-D", "--defined-only", plugin], capture_output=True,
                            text=True)
    names = {line.split()[-1] for line in listed.stdout.splitlines() if line.strip()}
    return {name for name in names if name.startswith("TF_Init")}


# Float inputs of the CPU step: halves and integers on both sides of zero (where truncating,
# rounding and leaky variants differ from the real op), signed zeros, then seeded normals. No
# NaN, no denormal: NumPy and TensorFlow's CPU may differ there on their own.
CPU_SPECIAL = [-2.5, -1.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.5, 6.5, -7.0]
# Ops run on TensorFlow's CPU device after loading a plugin without a device of its own, each
# against NumPy: tf.raw_ops name, its arguments from (x, y), NumPy's result, exact or not.
CPU_OPS = [
    ("AddV2", lambda x, y: {"x": x, "y": y}, lambda x, y: x + y, True),
    ("Sub", lambda x, y: {"x": x, "y": y}, lambda x, y: x - y, True),
    ("Mul", lambda x, y: {"x": x, "y": y}, lambda x, y: x * y, True),
    ("Relu", lambda x, y: {"features": x}, lambda x, y: np.maximum(x, np.float32(0)), True),
    ("Relu6", lambda x, y: {"features": x},
     lambda x, y: np.minimum(np.maximum(x, np.float32(0)), np.float32(6)), True),
    ("Floor", lambda x, y: {"x": x}, lambda x, y: np.floor(x), True),
    ("Neg", lambda x, y: {"x": x}, lambda x, y: -x, True),
    ("Abs", lambda x, y: {"x": x}, lambda x, y: np.abs(x), True),
    ("Square", lambda x, y: {"x": x}, lambda x, y: x * x, True),
    ("Tanh", lambda x, y: {"x": x}, lambda x, y: np.tanh(x), False),
    ("MatMul", lambda x, y: {"a": x[:64].reshape(8, 8), "b": y[:64].reshape(8, 8)},
     lambda x, y: x[:64].reshape(8, 8).astype(np.float64) @ y[:64].reshape(8, 8), False),
]


def on_cpu(tf, report):
    """Ops on TensorFlow's CPU device, each against NumPy, eagerly, then the residual block as
    a tf.function there (a CPU kernel plugin's kernels, of priority above TensorFlow's own, are
    the ones that run)."""
    rng = np.random.default_rng(23)
    x = np.concatenate([np.array(CPU_SPECIAL, dtype=np.float32),
                        (4 * rng.standard_normal(4096)).astype(np.float32)])
    y = np.concatenate([np.array(CPU_SPECIAL[::-1], dtype=np.float32),
                        (4 * rng.standard_normal(4096)).astype(np.float32)])
    for op, arguments, expected, exact in CPU_OPS:
        where = "%s on the CPU" % op
        report.at(where)
        want = expected(x, y)
        try:
            with tf.device("/CPU:0"):
                got = getattr(tf.raw_ops, op)(**{k: tf.constant(v) for k, v in
                                                 arguments(x, y).items()}).numpy()
        except Exception as error:
            report.finding("error", where, error_text(error))
        same = (np.array_equal(got, want) if exact
                else np.allclose(got, want, rtol=1e-5, atol=1e-5))
        if not same:
            bad = int(np.argmax(~np.isclose(got.ravel(), want.ravel(), rtol=1e-5, atol=1e-5)))
            report.finding("wrong values", where, "element %d: %s, expected %s" % (
                bad, got.ravel()[bad], want.ravel()[bad]))
    small_tensors_on_cpu(tf, report)
    where = "tf.function of a residual block (AddV2, Relu, AddV2) on the CPU"
    report.at(where)

    @tf.function
    def block(a, b):
        h = a + b
        return tf.nn.relu(h) + h

    try:
        with tf.device("/CPU:0"):
            got = block(tf.constant(x), tf.constant(y)).numpy()
    except Exception as error:
        report.finding("error", where, error_text(error))
    want = np.maximum(x + y, np.float32(0)) + (x + y)
    if not np.array_equal(got, want):
        report.finding("wrong values", where, "first elements %s, expected %s" % (
            got[:3], want[:3]))


# Rounds of small_tensors_on_cpu. Measured on 2.21.0: a CPU AddV2 writing one element past its
# output (cpu_kernel_plugins/addv2_writes_past_output) dies of glibc's "free(): invalid pointer"
# abort within 20 rounds; a correct one runs them all.
SMALL_ROUNDS = 20


def small_tensors_on_cpu(tf, report):
    """AddV2, Relu and Floor on the CPU for every size of 1 to 64 elements, results kept alive
    next to other tensors, then read: TensorFlow's CPU allocator gives a small tensor a malloc
    block with no room to spare, so a kernel writing past its output corrupts the heap (glibc
    aborts) or a neighbour's values."""
    where = "AddV2, Relu and Floor on the CPU on 1 to 64 elements, results kept alive"
    report.at(where)
    try:
        with tf.device("/CPU:0"):
            for _ in range(SMALL_ROUNDS):
                kept = []
                for n in range(1, 65):
                    x = np.full(n, 1.5, dtype=np.float32)
                    kept.append((tf.raw_ops.AddV2(x=tf.constant(x), y=tf.constant(x)), 3.0))
                    kept.append((tf.raw_ops.Relu(features=tf.constant(-x)), 0.0))
                    kept.append((tf.raw_ops.Floor(x=tf.constant(x)), 1.0))
                    kept.append((tf.constant(np.full(n, 5.0, dtype=np.float32)) + 0, 5.0))
                for tensor, value in kept:
                    if not (tensor.numpy() == value).all():
                        report.finding("wrong values", where, "a tensor of %d elements holds %s, "
                                       "expected %s" % (tensor.shape[0], tensor.numpy()[:2], value))
                del kept
    except Exception as error:
        report.finding("error", where, error_text(error))


def graphs(tf, device, entry_points, report):
    """For a plugin with a graph optimizer (TF_InitGraph): the graph tier's graphs as
    tf.functions on the device, which grappler's meta-optimizer hands to the plugin's optimizer
    before they run: an Identity chain with its end and its middle both fetched, and a chain
    whose nodes TensorFlow keeps. Each must give its input back, what the graph computes with
    no optimizer at all."""
    if "TF_InitGraph" not in entry_points:
        return
    x = np.arange(12, dtype=np.float32).reshape(3, 4)

    @tf.function
    def fetched_twice(a):
        b = tf.identity(a)
        c = tf.identity(tf.identity(b))
        return tf.identity(c), b

    @tf.function
    def kept(a):
        b = tf.identity(a)
        with tf.control_dependencies([tf.identity(b)]):
            return tf.identity(tf.identity(b))

    for where, graph in (("graph: an Identity chain fetched at its end and middle", fetched_twice),
                         ("graph: an Identity chain with a kept node", kept)):
        report.at(where)
        try:
            with tf.device(device):
                results = graph(tf.constant(x))
            results = results if isinstance(results, tuple) else (results,)
            values = [r.numpy() for r in results]
        except Exception as error:
            report.finding("error", where, error_text(error))
        for value in values:
            if value.tobytes() != x.tobytes():
                report.finding("wrong values", where, "a fetched node holds %s, expected %s" % (
                    value.ravel()[:3], x.ravel()[:3]))
        rejected = optimizer_output_rejected()
        if rejected:
            report.finding("error", where, rejected)


# What TensorFlow's meta-optimizer logs (at ERROR) when it cannot use a plugin optimizer's
# output: its own parse of the returned bytes failed. Measured on 2.21.0 and 2.15.1 with
# graph_profiler_defects/optimizer_unparsable_graph and cpu_kernel_plugins'
# optimizer_unparsable_graph: "PluggableGraphOptimizer failed: INVALID_ARGUMENT: Unparseable
# tensorflow.GraphDef proto", after which the graph runs without the plugin's pass. A status
# the plugin returns itself is logged the same way with the plugin's message
# (graph_profiler_defects/optimizer_fails: "INTERNAL: optimizer: failed on purpose"): that is
# the plugin declining a graph, not TensorFlow refusing what the plugin made.
OPTIMIZER_OUTPUT_REJECTED = re.compile(r"PluggableGraphOptimizer failed: (\w+: Unparseable .*)")
# The child's log file (its stdout and stderr): TensorFlow's C++ log lines land there.
LOG_PATH = None


def optimizer_output_rejected():
    """TensorFlow's message when it logged that it could not parse the plugin optimizer's
    output, else None."""
    sys.stderr.flush()
    with open(LOG_PATH, errors="replace") as f:
        found = OPTIMIZER_OUTPUT_REJECTED.search(f.read())
    return ("TensorFlow rejected the plugin optimizer's output and ran the graph without it: "
            + found.group(1).strip()) if found else None


def profiler(tf, plugin, device, entry_points, report):
    """For a plugin with a profiler (TF_InitProfiler): TensorFlow's profiler started and stopped
    around an op on the device (start calls the plugin's start, stop its stop and its
    collect_data_xspace, whose bytes TensorFlow parses and writes to the log folder)."""
    import tempfile

    if "TF_InitProfiler" not in entry_points:
        return
    where = "profiler started and stopped around an Identity on the device"
    report.at(where)
    x = np.arange(16, dtype=np.float32)
    folder = tempfile.mkdtemp(prefix="profile-")
    try:
        tf.profiler.experimental.start(folder)
        with tf.device(device):
            got = tf.identity(tf.constant(x)).numpy()
        tf.profiler.experimental.stop()
    except Exception as error:
        report.finding("error", where, error_text(error))
    if got.tobytes() != x.tobytes():
        report.finding("wrong values", where, "Identity gave %s" % got[:3])
    # Measured on 2.21.0 and 2.15.1: with graph_profiler_defects/profiler_legal the profile
    # holds its "/device:MINIMAL:0" plane next to TensorFlow's own ("/host:CPU", and "Task
    # Environment" in 2.21.0); with profiler_unparsable_xspace (bytes that are no XSpace) that
    # plane is missing and TensorFlow raises and logs nothing. A profiler that collects nothing
    # (tests/load_defects' plugin.c) leaves the same profile: so when no plane of the device is
    # there, the plugin's own bytes tell the two apart.
    planes = profile_planes(folder)
    report.send(profile_planes=planes)
    if not [name for name in planes if not name.startswith("/host:") and
            name != "Task Environment"]:
        lost = unparsable_xspace(tf, plugin)
        if lost:
            report.finding("wrong values", where, "the device's profile is lost: " + lost)


def unparsable_xspace(tf, plugin):
    """The plugin's own profiler driven as TensorFlow drives it (TF_InitProfiler, start, stop,
    collect_data_xspace's size then bytes), after TensorFlow's session: a message when it hands
    out bytes that do not parse as an XSpace, else None (no bytes, a failing status: nothing
    TensorFlow would have lost to a parse)."""
    import ctypes

    from google.protobuf.message import DecodeError

    xplane_pb2 = xplane_module()

    class Profiler(ctypes.Structure):  # TP_Profiler
        _fields_ = [("struct_size", ctypes.c_size_t), ("ext", ctypes.c_void_p),
                    ("device_type", ctypes.c_char_p)]

    status_fn = ctypes.CFUNCTYPE(None, ctypes.POINTER(Profiler), ctypes.c_void_p)
    collect_fn = ctypes.CFUNCTYPE(None, ctypes.POINTER(Profiler), ctypes.c_void_p,
                                  ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p)

    class Fns(ctypes.Structure):  # TP_ProfilerFns
        _fields_ = [("struct_size", ctypes.c_size_t), ("ext", ctypes.c_void_p),
                    ("start", status_fn), ("stop", status_fn), ("collect", collect_fn)]

    class Params(ctypes.Structure):  # TF_ProfilerRegistrationParams
        _fields_ = [("struct_size", ctypes.c_size_t), ("ext", ctypes.c_void_p),
                    ("major", ctypes.c_int32), ("minor", ctypes.c_int32),
                    ("patch", ctypes.c_int32), ("profiler", ctypes.POINTER(Profiler)),
                    ("fns", ctypes.POINTER(Fns)), ("destroy_profiler", ctypes.c_void_p),
                    ("destroy_profiler_fns", ctypes.c_void_p)]

    core = ctypes.CDLL(os.path.join(tf.sysconfig.get_lib(), "libtensorflow_framework.so.2"))
    core.TF_NewStatus.restype = ctypes.c_void_p
    core.TF_GetCode.argtypes = [ctypes.c_void_p]
    status = ctypes.c_void_p(core.TF_NewStatus())
    profiler = Profiler(struct_size=ctypes.sizeof(Profiler))
    fns = Fns(struct_size=ctypes.sizeof(Fns))
    params = Params(struct_size=ctypes.sizeof(Params), patch=1, profiler=ctypes.pointer(profiler),
                    fns=ctypes.pointer(fns))
    ctypes.CDLL(plugin).TF_InitProfiler(ctypes.byref(params), status)  # the handle TF loaded
    if core.TF_GetCode(status) != 0:
        return None
    for call in (fns.start, fns.stop):
        call(ctypes.byref(profiler), status)
        if core.TF_GetCode(status) != 0:
            return None
    size = ctypes.c_size_t(0)
    fns.collect(ctypes.byref(profiler), None, ctypes.byref(size), status)
    if core.TF_GetCode(status) != 0 or size.value == 0:
        return None
    buffer = ctypes.create_string_buffer(size.value)
    fns.collect(ctypes.byref(profiler), buffer, ctypes.byref(size), status)
    if core.TF_GetCode(status) != 0:
        return None
    try:
        xplane_pb2.XSpace().ParseFromString(buffer.raw[:size.value])
    except DecodeError:
        return "collect_data_xspace's %d bytes are no XSpace" % size.value
    return None


def xplane_module():
    """TensorFlow's own XSpace proto module from the wheel (it moved between releases)."""
    try:
        from tensorflow.tsl.profiler.protobuf import xplane_pb2
    except ImportError:
        from tensorflow.core.profiler.protobuf import xplane_pb2
    return xplane_pb2


def profile_planes(folder):
    """The plane names of the *.xplane.pb files under the profiler's log folder."""
    import glob

    xplane_pb2 = xplane_module()
    names = []
    for path in glob.glob(os.path.join(folder, "**", "*.xplane.pb"), recursive=True):
        space = xplane_pb2.XSpace()
        with open(path, "rb") as f:
            space.ParseFromString(f.read())
        names += [plane.name for plane in space.planes]
    return names


def fraction(probe, report):
    """The fraction step (memory_fraction.py): its probe ran beside the workload; what it saw
    counts after the workload's own findings."""
    # Not an `at` item: "N items right" counts the standard workload's items, as before.
    report.send(step="fraction")
    result = memory_fraction.probe_result(*probe, limit=0.75 * STALL)
    if "script_error" in result:
        raise RuntimeError("memory_fraction.py: " + result["script_error"])
    where = "fraction (a tf.compat.v1 Session, per_process_gpu_memory_fraction %s)" % (
        memory_fraction.FRACTION)
    for kind, finding in (("error", "error"), ("wrong", "wrong values"), ("crash", "crash"),
                          ("hang", "hang")):
        if kind in result:
            report.finding(finding, where, result[kind])


def child(request, cases, write_fd):
    """In the forked child: output to the log, the workload, then out at once (os._exit: no
    teardown of the server's Python state, which belongs to the parent)."""
    os.close(ANSWERS_FD)  # the server's answer channel is not the child's
    global LOG_PATH
    LOG_PATH = request["log"]
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    report = Reporter(write_fd)
    os.environ.update(request.get("env", {}))  # a mock plugin's configuration, read at load
    # Forked before this process loads the plugin: the option it sets applies only to the
    # first creation of the device's allocator in a process.
    probe = memory_fraction.probe_start(request["plugin"], BUILT_IN_TYPES, error_text)
    try:
        try:
            workload(request["plugin"], request["runs"], cases, report)
            fraction(probe, report)
        except Found:
            pass
        report.send(done=True)
    except BaseException:  # a bug of this script, not the plugin's: say so
        report.send(script_error=traceback.format_exc()[-1500:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


class Running:
    def __init__(self, request, pid, fd):
        self.request, self.pid, self.fd = request, pid, fd
        self.buffer, self.events = b"", []
        self.started = self.last = time.monotonic()
        self.killed = None


def serve(cases, stall, limit, answer):
    running = {}  # read fd -> Running
    requests_open, pending = True, b""
    stdin = sys.stdin.fileno()
    while requests_open or running:
        watched = list(running) + ([stdin] if requests_open else [])
        readable, _, _ = select.select(watched, [], [], 0.25)
        for fd in readable:
            if fd == stdin:
                # Raw reads: a buffered readline could hold a second request select cannot see.
                chunk = os.read(stdin, 65536)
                requests_open = bool(chunk)
                *lines, pending = (pending + chunk).split(b"\n")
                for line in filter(bytes.strip, lines):
                    read_fd, write_fd = os.pipe()
                    start(json.loads(line), cases, read_fd, write_fd, running)
                continue
            job = running[fd]
            chunk = os.read(fd, 65536)
            if chunk:
                job.last = time.monotonic()
                job.buffer += chunk
                *lines, job.buffer = job.buffer.split(b"\n")
                job.events += [json.loads(item) for item in lines if item.strip()]
                continue
            finish(running.pop(fd), answer)
        now = time.monotonic()
        for fd, job in list(running.items()):
            silent, total = now - job.last, now - job.started
            if silent > stall or total > limit:
                job.killed = ("no progress for %.0f s" % silent if silent > stall
                              else "still running after %.0f s" % total)
                os.kill(job.pid, signal.SIGKILL)
                finish(running.pop(fd), answer)


def start(request, cases, read_fd, write_fd, running):
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        for other in running:  # the other children's pipes stay theirs
            os.close(other)
        child(request, cases, write_fd)
    os.close(write_fd)
    running[read_fd] = Running(request, pid, read_fd)


def finish(job, answer):
    os.close(job.fd)
    _, status = os.waitpid(job.pid, 0)
    answer({"id": job.request["id"], "events": job.events, "killed": job.killed,
            "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "seconds": round(time.monotonic() - job.started, 2)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", required=True)
    parser.add_argument("--stall", type=float, default=20)
    parser.add_argument("--limit", type=float, default=1800)
    parser.add_argument("--record-dump-tool", help="record_case_dump: run the recorded step")
    args = parser.parse_args()
    global RECORD_DUMP_TOOL, STALL
    STALL = args.stall
    RECORD_DUMP_TOOL = args.record_dump_tool
    # Answers go to the original stdout; anything TensorFlow prints goes to stderr instead.
    global ANSWERS_FD
    ANSWERS_FD = os.dup(1)
    answers = os.fdopen(ANSWERS_FD, "w", buffering=1)
    os.dup2(2, 1)

    def answer(message):
        answers.write(json.dumps(message) + "\n")

    # Everything the children use, imported before the first fork (not run: no TensorFlow
    # context or device exists until a child loads its plugin).
    import tensorflow as tf
    from tensorflow.python.framework import kernels, load_library, op_def_registry  # noqa: F401
    import lifetimes_in_tensorflow  # noqa: F401
    import recorded_in_tensorflow  # noqa: F401
    import reference_in_tensorflow  # noqa: F401
    import tf_cases  # noqa: F401

    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    answer({"ready": tf.__version__})
    serve(cases, args.stall, args.limit, answer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
