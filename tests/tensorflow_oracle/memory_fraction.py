"""The `fraction` step of the consequence workload: the plugin's device in a tf.compat.v1
Session whose options set per_process_gpu_memory_fraction.

Measured on the mock plugin: with that option TensorFlow sizes the device's memory from the
*total device_memory_usage reports (2.21.0 reads ConfigProto.pluggable_device_options and
ignores gpu_options for a PluggableDevice; 2.15.1 has no pluggable_device_options and reads
gpu_options); without it, from *free alone. A plugin that leaves *total unwritten gets a
memory limit of 0 there and every allocation fails (ResourceExhaustedError), on both releases,
while the eager workload, which cannot set the option, runs right.

The option applies only to the process's first creation of the device's allocator, so the
step runs in a process forked before the plugin is loaded anywhere: probe_start() in the
workload's child, before its own load; probe_result() after the rest of the workload.
"""

import ctypes
import json
import os
import signal
import time

FRACTION = 0.5
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def probe_start(plugin, built_in_types, error_text):
    """Forks the probe; returns (pid, read end of its result pipe). built_in_types: the device
    types TensorFlow has without a plugin; error_text: a TensorFlow error on one line (both the
    workload's own)."""
    read_fd, write_fd = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        die_with_parent(parent)
        quiet = os.open(os.devnull, os.O_WRONLY)  # the workload's log is its own process's
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        try:
            result = probe(plugin, built_in_types, error_text)
        except BaseException as error:  # noqa: B036 - a bug of the script, not the plugin's
            result = {"script_error": repr(error)[:300]}
        os.write(write_fd, json.dumps(result).encode())
        os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def die_with_parent(parent):
    """The workload's child ends early on a finding, or the server kills it on a stall: its probe
    must not outlive it (a probe of a plugin that spins would run on as an orphan)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)


def probe(plugin, built_in_types, error_text):
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.framework import load_library

    tf.compat.v1.disable_eager_execution()
    try:
        load_library.load_pluggable_device_library(plugin)
    except Exception:  # the workload's own load reports the refusal
        return {"skipped": "not loaded"}
    types = sorted({d.device_type for d in tf.config.list_physical_devices()} - built_in_types)
    if not types:
        return {"skipped": "no device"}
    config = tf.compat.v1.ConfigProto(allow_soft_placement=False)
    options = (config.pluggable_device_options
               if "pluggable_device_options" in config.DESCRIPTOR.fields_by_name
               else config.gpu_options)
    options.per_process_gpu_memory_fraction = FRACTION
    values = np.arange(1, 6, dtype=np.float32)
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/device:%s:0" % types[0]):
            copied = tf.identity(tf.constant(values))
    try:
        with tf.compat.v1.Session(graph=graph, config=config) as session:
            got = session.run(copied)
    except tf.errors.OpError as error:
        return {"error": error_text(error)}
    if not np.array_equal(got, values):
        return {"wrong": "read back %s, want %s" % (got.tolist(), values.tolist())}
    return {"ok": True}


def probe_result(pid, read_fd, limit):
    """The probe's result; a probe that died or ran past `limit` seconds, as such."""
    deadline = time.monotonic() + limit
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read_fd)
            return {"hang": "no answer after %.0f s" % limit}
        time.sleep(0.05)
    with os.fdopen(read_fd, "rb") as pipe:
        text = pipe.read()
    if os.WIFSIGNALED(status):
        return {"crash": signal.Signals(os.WTERMSIG(status)).name}
    return json.loads(text) if text else {"crash": "exit code %d" % os.WEXITSTATUS(status)}
