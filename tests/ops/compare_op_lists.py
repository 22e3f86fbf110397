#!/usr/bin/env python3
"""compare_op_lists.py OURS: compares the OpList the mock core hands plugins (OURS, written by
op_list_dump) with the installed wheel's own TF_GetAllOpList, op by op.

Run with the wheel's python. The registry files keep no summaries, descriptions or deprecations
(facts only), so those are cleared on TensorFlow's side; what remains (arguments, attrs with
their types, defaults, minimums and allowed values, and the flags) must be equal. Known gaps of
the registry files are reported separately and do not fail: defaults of shape, tensor and func
attrs and their lists (kept as text only). Exit 0 when every op agrees, 1 otherwise, naming the first few.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from tensorflow.core.framework import op_def_pb2  # noqa: E402
from tensorflow.python.client import pywrap_tf_session as c_api  # noqa: E402

TEXT_ONLY_DEFAULTS = ("shape", "tensor", "func", "list(shape)", "list(tensor)", "list(func)")


def tensorflow_ops():
    buffer = c_api.TF_GetAllOpList()
    try:
        data = c_api.TF_GetBuffer(buffer)
    finally:
        c_api.TF_DeleteBuffer(buffer)
    return {op.name: op for op in op_def_pb2.OpList.FromString(data).op}


def facts_only(op):
    """TensorFlow's op without what the registry files do not keep; the count of dropped
    text-only defaults."""
    op = op_def_pb2.OpDef.FromString(op.SerializeToString())
    op.summary = ""
    op.description = ""
    op.ClearField("deprecation")
    for arg in list(op.input_arg) + list(op.output_arg):
        arg.description = ""
        arg.ClearField("handle_data")
        arg.ClearField("experimental_full_type")
    dropped = 0
    for attr in op.attr:
        attr.description = ""
        if attr.type in TEXT_ONLY_DEFAULTS and attr.HasField("default_value"):
            attr.ClearField("default_value")
            dropped += 1
    return op, dropped


def main(argv):
    with open(argv[1], "rb") as f:
        ours = {op.name: op for op in op_def_pb2.OpList.FromString(f.read()).op}
    theirs = tensorflow_ops()
    missing = sorted(set(theirs) - set(ours))
    extra = sorted(set(ours) - set(theirs))
    differ = []
    dropped = 0
    for name in sorted(set(theirs) & set(ours)):
        expected, count = facts_only(theirs[name])
        dropped += count
        if expected != ours[name]:
            differ.append((name, expected, ours[name]))
    print("%d ops in TensorFlow's list, %d in ours; %d missing, %d extra, %d differ; "
          "%d shape/tensor/func (list) defaults not carried (text only in the registry files)"
          % (len(theirs), len(ours), len(missing), len(extra), len(differ), dropped))
    for name in missing[:5]:
        print("missing: " + name)
    for name in extra[:5]:
        print("extra: " + name)
    for name, expected, actual in differ[:3]:
        print("differs: %s\n--- TensorFlow\n%s--- ours\n%s" % (name, expected, actual))
    return 0 if not (missing or extra or differ) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
