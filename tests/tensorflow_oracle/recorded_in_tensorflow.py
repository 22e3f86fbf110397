"""The recorded oracle's cases (specs/ops/record), run on a plugin's device inside TensorFlow.

The record holds what TensorFlow 2.21.0's CPU computed for the generated cases of every op; the
inputs are not stored but made again by record_case_dump from the record's seed (each entry
keeps the digest of the inputs it was made from). consequence_runner.py runs, for every kernel
the device holds whose op no kernel scenario covers, the cases of that cell on the device and
compares them with the recorded outputs by the kernel tier's rule (tf_cases.compare, the case's
own tolerance, which includes harness/kernels/cpu_approximations.h's allowance).

Conservative on purpose, since a false "wrong values" would call a correct plugin defective:
only values are judged, and a denormals case is excused as the kernel tier excuses it
(harness/kernels/tensorflow_cpu_oracle.cc): where TensorFlow's CPU flushed its denormal inputs
(its result equals its result for the companion case with zeros), or where the device gives the
float64 companion's result rounded, or the CPU's for zeros (the CPU being no oracle there). A case whose entry is missing, made from other inputs, left out, or
recorded as an error of TensorFlow's CPU is not run; a case the device refuses, or whose
kernel the device lacks, is not judged (errors are the suite's to weigh, with TensorFlow's
code, not this comparison's).
"""

import gzip
import json
import os
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD_DIR = os.path.join(HERE, "..", "..", "specs", "ops", "record")


def record_path(release, op):
    return os.path.join(RECORD_DIR, release, op + ".json.gz")


def read_record(release, op):
    """The op's record, or None when there is none (or it is left out: stateful, refused)."""
    path = record_path(release, op)
    if not os.path.exists(path):
        return None
    with gzip.open(path, "rb") as f:
        record = json.loads(f.read())
    return None if "left_out" in record else record


def dump_cases(tool, ops):
    """record_case_dump's cases of `ops` (with their inputs and digests), by op."""
    if not ops:
        return {}
    command = [tool] + [arg for op in sorted(ops) for arg in ("--op", op)]
    dump = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout)
    by_op = {}
    for case in dump["cases"]:
        by_op.setdefault(case["op"], []).append(case)
    return by_op


def recorded_outcome(record, case):
    """run_case's ("ok", [numpy outputs]) from the record's entry for the case, or None when the
    record cannot judge it (no entry from these inputs, left out, or an error on the CPU)."""
    import tensorflow as tf

    entries = record.get("cells", {}).get(case["dtype"], [])
    for entry in entries:
        if entry["shape_index"] != case["shape_index"] or entry["attrs"] != case["attrs_digest"]:
            continue
        if entry["inputs"] != case["inputs_digest"] or "outputs" not in entry.get("cpu", {}):
            return None
        outputs = []
        for output in entry["cpu"]["outputs"]:
            dtype = tf.as_dtype(output["dtype"]).as_numpy_dtype
            if "every" in output:  # one element's bytes for every element (record.py)
                raw = bytes.fromhex(output["every"]) * int(np.prod(output["shape"]))
            else:
                raw = bytes.fromhex(output["hex"])
            outputs.append(np.frombuffer(raw, dtype=dtype).reshape(output["shape"]))
        return ("ok", outputs)
    return None


def case_matches(case, constraint):
    """Whether the device's kernel with `constraint` ((attr, dtype name), ...) runs the case."""
    import tf_cases

    types = {name: tf_cases.ENUM_DTYPE.get(value["type"])
             for name, value in case["attrs"].items() if "type" in value}
    return all(types.get(attr) == dtype for attr, dtype in constraint)


def wrong_values(case, recorded, on_device):
    """A description when the device computed other values than the record, else None."""
    import tf_cases

    if on_device[0] != "ok":
        return None  # not judged here: see the module's docstring
    for index, (expected, actual) in enumerate(zip(recorded[1], on_device[1])):
        # The dtype names tf_cases compares; another (complex, string) is not judged here.
        dtype = {np.dtype(tf_cases.numpy_dtype(name)): name
                 for name in tf_cases.DTYPE_ENUM}.get(np.dtype(expected.dtype))
        if actual is None or dtype is None:
            return None
        problem = tf_cases.compare(expected, actual, dtype, case["tolerance"])
        if problem:
            return "output %d: %s" % (index, problem)
    return None


def companion(case, cases, key):
    """The case of the same cell named by case[key] (flushed_companion, float64_companion)."""
    if key not in case:
        return None
    for other in cases:
        if other["dtype"] == case["dtype"] and other["shape_index"] == case[key]:
            return other
    return None


def excused(case, cases, record, on_device):
    """Whether a denormals case the device computed otherwise than the record is not the
    device's fault: see the module's docstring."""
    recorded = recorded_outcome(record, case)
    flushed_case = companion(case, cases, "flushed_companion")
    flushed = recorded_outcome(record, flushed_case) if flushed_case else None
    if recorded and flushed and all(
            a.tobytes() == b.tobytes() for a, b in zip(recorded[1], flushed[1])):
        return True  # TensorFlow's CPU flushed the denormal inputs: nothing to hold a device to
    if flushed and wrong_values(case, flushed, on_device) is None:
        return True  # the device flushes too
    wide_case = companion(case, cases, "float64_companion")
    wide = recorded_outcome(record, wide_case) if wide_case else None
    if wide and recorded:
        rounded = ("ok", [w.astype(r.dtype) for w, r in zip(wide[1], recorded[1])])
        if wrong_values(case, rounded, on_device) is None:
            return True  # the device computes what float64 does
    return False
