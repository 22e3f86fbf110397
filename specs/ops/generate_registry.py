#!/usr/bin/env python3
"""Writes the op registry of the installed TensorFlow release as one line per op.

Run it with a TensorFlow venv's python:

    /tmp/tf221/bin/python specs/ops/generate_registry.py specs/ops/registry/tensorflow-2.21.0.ops
    /tmp/tf215/bin/python specs/ops/generate_registry.py specs/ops/registry/tensorflow-2.15.1.ops

It reads every registered OpDef (TF_GetAllOpList, after `import tensorflow` has loaded the
bundled op libraries) and keeps facts only: op, argument and attr names, types, allowed values,
defaults and minimums. Summaries and descriptions are dropped. Without an output path it prints
to stdout (the regeneration test compares that with the committed file).

Line format (fields separated by one TAB; ops sorted by name, byte order):

    <op>  <input spec>...  ->  <output spec>...  |  <attr spec>...  [!  <flag>...]

Every spec string is in TensorFlow's op-definition grammar (specs/ops/README.md), the same
strings harness/ops parses for ops.h registrations: "x: T", "x: N * T", "x: Ref(float)",
"T: {half, float} = DT_FLOAT", "n: int >= 1", "padding: {'SAME', 'VALID'}". String values are
C-escaped, so no spec holds a TAB; "->", "|" and "!" are never a spec of their own. The flags
are the OpDef's boolean fields that are set, in FLAGS order (the order TensorFlow's summary of an
op names them); the "!" section is left out when none is set.
"""
import math
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402  (after the log level is set)
import tensorflow  # noqa: E402,F401  (loads every bundled op library into the registry)
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.framework import op_def_pb2, types_pb2  # noqa: E402
from tensorflow.python.client import pywrap_tf_session  # noqa: E402


def all_ops():
    buffer = pywrap_tf_session.TF_GetAllOpList()
    try:
        data = pywrap_tf_session.TF_GetBuffer(buffer)
    finally:
        pywrap_tf_session.TF_DeleteBuffer(buffer)
    return sorted(op_def_pb2.OpList.FromString(data).op, key=lambda op: op.name.encode())


def enum_name(dtype):
    return types_pb2.DataType.Name(dtype)


def type_name(dtype):
    """TensorFlow's DataTypeString: DT_FLOAT -> float."""
    return enum_name(dtype)[3:].lower()


def quoted(value):
    """A string value as the grammar reads it: single quotes, C escapes."""
    out = []
    for byte in value:
        char = chr(byte)
        if char in "\\'\"":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append("\\%03o" % byte)
    return "'" + "".join(out) + "'"


def float_text(value):
    """The shortest text that reads back as the same float32 value."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    return str(np.float32(value))


def message_text(message):
    text = text_format.MessageToString(message, as_one_line=True).strip()
    return "{ " + text + " }" if text else "{ }"


def scalar_values(element, value):
    """The values of one AttrValue field for an element type, as spec text."""
    if element == "string":
        return [quoted(item) for item in value.s]
    if element == "int":
        return [str(item) for item in value.i]
    if element == "float":
        return [float_text(item) for item in value.f]
    if element == "bool":
        return ["true" if item else "false" for item in value.b]
    if element == "type":
        return [enum_name(item) for item in value.type]
    if element == "shape":
        return [message_text(item) for item in value.shape]
    if element == "tensor":
        return [message_text(item) for item in value.tensor]
    if element == "func":
        return [message_text(item) for item in value.func]
    raise ValueError("unknown attr element type " + element)


def default_text(attr):
    value = attr.default_value
    if attr.type.startswith("list("):
        return "[" + ", ".join(scalar_values(attr.type[5:-1], value.list)) + "]"
    field = value.WhichOneof("value")
    single = {
        "s": lambda: quoted(value.s),
        "i": lambda: str(value.i),
        "f": lambda: float_text(value.f),
        "b": lambda: "true" if value.b else "false",
        "type": lambda: enum_name(value.type),
        "shape": lambda: message_text(value.shape),
        "tensor": lambda: message_text(value.tensor),
        "func": lambda: message_text(value.func),
    }
    if field not in single:
        raise ValueError("attr %s: default of unexpected kind %s" % (attr.name, field))
    return single[field]()


def attr_spec(attr):
    list_type = attr.type.startswith("list(")
    element = attr.type[5:-1] if list_type else attr.type
    kind = element
    if attr.HasField("allowed_values"):
        allowed = attr.allowed_values.list
        if element == "type":
            kind = "{" + ", ".join(type_name(t) for t in allowed.type) + "}"
        elif element == "string":
            kind = "{" + ", ".join(quoted(s) for s in allowed.s) + "}"
        else:
            raise ValueError("attr %s: allowed values on a %s attr" % (attr.name, attr.type))
    spec = attr.name + ": " + ("list(" + kind + ")" if list_type else kind)
    if attr.has_minimum:
        spec += " >= " + str(attr.minimum)
    if attr.HasField("default_value"):
        spec += " = " + default_text(attr)
    return spec


def arg_spec(arg):
    if arg.type_list_attr:
        kind = arg.type_list_attr
    else:
        kind = arg.type_attr if arg.type_attr else type_name(arg.type)
        if arg.number_attr:
            kind = arg.number_attr + " * " + kind
    if arg.is_ref:
        kind = "Ref(" + kind + ")"
    return arg.name + ": " + kind


FLAGS = ("is_commutative", "is_aggregate", "is_stateful", "allows_uninitialized_input",
         "is_distributed_communication")


def op_line(op):
    fields = [op.name]
    fields += [arg_spec(arg) for arg in op.input_arg]
    fields.append("->")
    fields += [arg_spec(arg) for arg in op.output_arg]
    fields.append("|")
    fields += [attr_spec(attr) for attr in op.attr]
    flags = [flag for flag in FLAGS if getattr(op, flag)]
    if flags:
        fields += ["!"] + flags
    for field in fields:
        if "\t" in field or "\n" in field:
            raise ValueError("op %s: a spec holds a TAB or newline: %r" % (op.name, field))
    return "\t".join(fields)


def render():
    version = tensorflow.__version__
    lines = [
        "# TensorFlow %s op registry: every registered op's arguments and attrs (facts only)." % version,
        "# Generated by specs/ops/generate_registry.py; do not edit. Format: see that script.",
    ]
    lines += [op_line(op) for op in all_ops()]
    return "\n".join(lines) + "\n"


def main(argv):
    text = render()
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
