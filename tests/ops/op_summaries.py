#!/usr/bin/env python3
"""Prints TensorFlow's own one-line summary of every registered op (SummarizeOpDef), one a line:

    <op> TAB Op<name=<op>; signature=...>

Run it with a TensorFlow venv's python, e.g.

    /tmp/tf221/bin/python tests/ops/op_summaries.py > /tmp/summaries-2.21.0.txt

With op names as arguments it prints only those ops (tests/ops/op_summaries-2.21.0.txt, the
golden file the unit tests check the suite's rendering against, is
`op_summaries.py $(cut -f1 tests/ops/op_summaries-2.21.0.txt)` with 2.21.0).

TensorFlow puts that summary into the INVALID_ARGUMENT it aborts with when a kernel names a
HostMemory argument the op does not have, and the suite renders the same text from its op
registry (harness/ops/op_summary.cc). Python has no binding for the summary itself, so this
script makes graph construction report it: a node built with no inputs for an op that has input
arguments, or with one input for an op that has none, fails with "... while building NodeDef
'probe' using Op<...>", and that text ends with the summary.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402  (after the log level is set)
from tensorflow.core.framework import op_def_pb2  # noqa: E402
from tensorflow.python.client import pywrap_tf_session as c_api  # noqa: E402

MARKER = " using Op<"


def all_ops():
    buffer = c_api.TF_GetAllOpList()
    try:
        data = c_api.TF_GetBuffer(buffer)
    finally:
        c_api.TF_DeleteBuffer(buffer)
    return sorted(op_def_pb2.OpList.FromString(data).op, key=lambda op: op.name.encode())


def summary(op):
    graph = tf.Graph()
    give_input = len(op.input_arg) == 0
    if give_input:
        with graph.as_default():
            source = tf.compat.v1.placeholder(tf.float32)
    desc = c_api.TF_NewOperation(graph._c_graph, op.name, "probe")
    if give_input:
        c_api.TF_AddInput(desc, source._as_tf_output())
    try:
        c_api.TF_FinishOperation(desc)
    except Exception as error:  # TensorFlow's status, raised as a Python exception
        text = str(error)
        at = text.find(MARKER)
        if at >= 0:
            return "Op<" + text[at + len(MARKER):]
        raise ValueError("op %s: no summary in %r" % (op.name, text))
    raise ValueError("op %s: a node with the wrong number of inputs was accepted" % op.name)


def main(names):
    for op in all_ops():
        if names and op.name not in names:
            continue
        text = summary(op)
        if "\n" in text:
            raise ValueError("op %s: the summary spans lines" % op.name)
        sys.stdout.write(op.name + "\t" + text + "\n")


if __name__ == "__main__":
    main(set(sys.argv[1:]))
