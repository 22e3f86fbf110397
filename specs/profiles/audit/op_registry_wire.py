"""TensorFlow's serialized OpList (what TF_GetAllOpList returns) as specs/ops/registry lines.

Standard library only, so the audit can read the op registry of a release whose Python package
cannot be imported here (2.5 to 2.11 have no wheel for this interpreter). It decodes the protobuf
wire format of the few messages an OpList holds (field numbers are those of TensorFlow's
op_def.proto, attr_value.proto, tensor_shape.proto, tensor.proto) and renders each op exactly as
specs/ops/generate_registry.py does from the Python objects; the audit's tests compare the two on
the installed wheels. A field this decoder does not know raises instead of being dropped, so a
newer OpDef cannot be rendered silently wrong.
"""
import math
import struct

# TF_DataType values (specs/abi/tf_enums.json); DataType names are "DT_" + these, refs + 100.
_DATA_TYPES = [
    "INVALID", "FLOAT", "DOUBLE", "INT32", "UINT8", "INT16", "INT8", "STRING", "COMPLEX64",
    "INT64", "BOOL", "QINT8", "QUINT8", "QINT32", "BFLOAT16", "QINT16", "QUINT16", "UINT16",
    "COMPLEX128", "HALF", "RESOURCE", "VARIANT", "UINT32", "UINT64", "FLOAT8_E5M2",
    "FLOAT8_E4M3FN", "FLOAT8_E4M3FNUZ", "FLOAT8_E4M3B11FNUZ", "FLOAT8_E5M2FNUZ", "INT4", "UINT4",
    "INT2", "UINT2",
]

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5


def _varint(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def fields(data):
    """(number, wire type, value) of every field of one message, in wire order."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == VARINT:
            value, pos = _varint(data, pos)
        elif wire == FIXED64:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == FIXED32:
            value, pos = data[pos:pos + 4], pos + 4
        elif wire == BYTES:
            length, pos = _varint(data, pos)
            value, pos = data[pos:pos + length], pos + length
        else:
            raise ValueError("unsupported wire type %d" % wire)
        yield number, wire, value


def _signed64(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def _ints(wire, value):
    """A repeated varint field's values: packed (BYTES) or one (VARINT)."""
    if wire == VARINT:
        return [value]
    out, pos = [], 0
    while pos < len(value):
        item, pos = _varint(value, pos)
        out.append(item)
    return out


def _floats(wire, value):
    raw = value if wire in (BYTES, FIXED32) else b""
    return [item[0] for item in struct.iter_unpack("<f", raw)]


def enum_name(dtype):
    if dtype > 100:
        return "DT_" + _DATA_TYPES[dtype - 100] + "_REF"
    return "DT_" + _DATA_TYPES[dtype]


def type_name(dtype):
    return enum_name(dtype)[3:].lower()


def quoted(value):
    """A string value as the op grammar reads it: single quotes, C escapes."""
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
    """The shortest text that reads back as the same float32, as numpy's str of a float32 writes
    it: positional from 1e-4 up to 1e16, otherwise scientific with a two-digit exponent."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    target = struct.pack("<f", value)
    digits = next(d for d in range(1, 10)
                  if struct.pack("<f", float("%.*g" % (d, value))) == target)
    if value == 0 or 1e-4 <= abs(value) < 1e16:
        return repr(float("%.*g" % (digits, value)))
    return "%.*e" % (digits - 1, value)


# Text format (one line) of the messages an attr default can hold. Fields print in field-number
# order, as protobuf's text format does; an unknown field raises.
def _shape_text(data):
    dims, unknown = [], False
    for number, wire, value in fields(data):
        if number == 2:
            parts = []
            for dim_number, _, dim_value in sorted(fields(value), key=lambda f: f[0]):
                if dim_number == 1:
                    parts.append("size: %d" % _signed64(dim_value))
                elif dim_number == 2:
                    parts.append("name: \"%s\"" % dim_value.decode())
                else:
                    raise ValueError("TensorShapeProto.Dim field %d" % dim_number)
            dims.append("dim { " + " ".join(parts) + (" }" if parts else "}"))
        elif number == 3:
            unknown = bool(value)
        else:
            raise ValueError("TensorShapeProto field %d" % number)
    parts = dims + (["unknown_rank: true"] if unknown else [])
    return " ".join(parts)


def _tensor_text(data):
    by_number = {}
    for number, wire, value in fields(data):
        by_number.setdefault(number, []).append((wire, value))
    parts = []
    for number in sorted(by_number):
        entries = by_number[number]
        if number == 1:
            parts.append("dtype: " + enum_name(entries[-1][1]))
        elif number == 2:
            inner = _shape_text(entries[-1][1])
            parts.append("tensor_shape { " + inner + (" }" if inner else "}"))
        elif number in (7, 10):  # int_val (int32), int64_val
            label = "int_val" if number == 7 else "int64_val"
            for wire, value in entries:
                parts += ["%s: %d" % (label, _signed64(item)) for item in _ints(wire, value)]
        elif number == 11:  # bool_val
            for wire, value in entries:
                parts += ["bool_val: " + ("true" if item else "false")
                          for item in _ints(wire, value)]
        else:
            raise ValueError("TensorProto field %d in an attr default" % number)
    return " ".join(parts)


def _func_text(data):
    parts = []
    for number, _, value in fields(data):
        if number != 1:
            raise ValueError("NameAttrList field %d in an attr default" % number)
        parts.append("name: " + '"' + value.decode() + '"')
    return " ".join(parts)


def _message_text(kind, data):
    text = {"shape": _shape_text, "tensor": _tensor_text, "func": _func_text}.get(kind)
    if text is None:
        raise ValueError("attr default of kind %s" % kind)
    inner = text(data)
    return "{ " + inner + " }" if inner else "{ }"


def _list_values(element, data):
    """The values of an AttrValue.ListValue for one element type, as spec text."""
    numbers = {"string": 2, "int": 3, "float": 4, "bool": 5, "type": 6, "shape": 7, "tensor": 8,
               "func": 9}
    if element not in numbers:
        raise ValueError("list attr of element type " + element)
    out = []
    for number, wire, value in fields(data):
        if number != numbers[element]:
            raise ValueError("ListValue field %d for element %s" % (number, element))
        if element == "string":
            out.append(quoted(value))
        elif element == "int":
            out += [str(_signed64(item)) for item in _ints(wire, value)]
        elif element == "float":
            out += [float_text(item) for item in _floats(wire, value)]
        elif element == "bool":
            out += ["true" if item else "false" for item in _ints(wire, value)]
        elif element == "type":
            out += [enum_name(item) for item in _ints(wire, value)]
        else:
            out.append(_message_text(element, value))
    return out


def _default_text(attr_type, data):
    if attr_type.startswith("list("):
        list_data = b""
        for number, _, value in fields(data):
            if number != 1:
                raise ValueError("list attr default in AttrValue field %d" % number)
            list_data = value
        return "[" + ", ".join(_list_values(attr_type[5:-1], list_data)) + "]"
    chosen = None
    for number, wire, value in fields(data):
        chosen = (number, wire, value)
    if chosen is None:
        raise ValueError("empty attr default")
    number, wire, value = chosen
    if number == 2:
        return quoted(value)
    if number == 3:
        return str(_signed64(value))
    if number == 4:
        return float_text(struct.unpack("<f", value)[0])
    if number == 5:
        return "true" if value else "false"
    if number == 6:
        return enum_name(value)
    if number == 7:
        return _message_text("shape", value)
    if number == 8:
        return _message_text("tensor", value)
    if number == 10:
        return _message_text("func", value)
    raise ValueError("attr default in AttrValue field %d" % number)


def _attr_spec(data):
    name = attr_type = ""
    default = allowed = None
    has_minimum, minimum = False, 0
    for number, wire, value in fields(data):
        if number == 1:
            name = value.decode()
        elif number == 2:
            attr_type = value.decode()
        elif number == 3:
            default = value
        elif number == 5:
            has_minimum = bool(value)
        elif number == 6:
            minimum = _signed64(value)
        elif number == 7:
            allowed = value
        elif number != 4:  # 4: description, dropped
            raise ValueError("AttrDef field %d" % number)
    list_type = attr_type.startswith("list(")
    element = attr_type[5:-1] if list_type else attr_type
    kind = element
    if allowed is not None:
        list_data = b"".join(value for number, _, value in fields(allowed) if number == 1)
        if element == "type":
            values = [type_name(t) for n, w, v in fields(list_data) if n == 6 for t in _ints(w, v)]
        elif element == "string":
            values = [quoted(v) for n, _, v in fields(list_data) if n == 2]
        else:
            raise ValueError("attr %s: allowed values on a %s attr" % (name, attr_type))
        kind = "{" + ", ".join(values) + "}"
    spec = name + ": " + ("list(" + kind + ")" if list_type else kind)
    if has_minimum:
        spec += " >= " + str(minimum)
    if default is not None:
        spec += " = " + _default_text(attr_type, default)
    return spec


def _arg_spec(data):
    name = type_attr = number_attr = type_list_attr = ""
    dtype, is_ref = 0, False
    for number, wire, value in fields(data):
        if number == 1:
            name = value.decode()
        elif number == 3:
            dtype = value
        elif number == 4:
            type_attr = value.decode()
        elif number == 5:
            number_attr = value.decode()
        elif number == 6:
            type_list_attr = value.decode()
        elif number == 16:
            is_ref = bool(value)
        elif number not in (2, 7, 17):  # description, handle_data, experimental_full_type
            raise ValueError("ArgDef field %d" % number)
    if type_list_attr:
        kind = type_list_attr
    else:
        kind = type_attr if type_attr else type_name(dtype)
        if number_attr:
            kind = number_attr + " * " + kind
    if is_ref:
        kind = "Ref(" + kind + ")"
    return name + ": " + kind


# OpDef boolean fields by number, in the order generate_registry.py's FLAGS names them.
_FLAGS = ((18, "is_commutative"), (16, "is_aggregate"), (17, "is_stateful"),
          (19, "allows_uninitialized_input"), (21, "is_distributed_communication"))


def op_line(data):
    name, inputs, outputs, attrs, flags = "", [], [], [], set()
    for number, wire, value in fields(data):
        if number == 1:
            name = value.decode()
        elif number == 2:
            inputs.append(_arg_spec(value))
        elif number == 3:
            outputs.append(_arg_spec(value))
        elif number == 4:
            attrs.append(_attr_spec(value))
        elif number in dict(_FLAGS):
            if value:
                flags.add(number)
        elif number not in (5, 6, 8, 20):  # summary, description, deprecation, control_output
            raise ValueError("OpDef field %d" % number)
    line = [name] + inputs + ["->"] + outputs + ["|"] + attrs
    named = [flag for number, flag in _FLAGS if number in flags]
    if named:
        line += ["!"] + named
    for field in line:
        if "\t" in field or "\n" in field:
            raise ValueError("op %s: a spec holds a TAB or newline: %r" % (name, field))
    return name, "\t".join(line)


def registry_lines(op_list):
    """{op name: registry line} of a serialized OpList."""
    lines = {}
    for number, _, value in fields(op_list):
        if number != 1:
            raise ValueError("OpList field %d" % number)
        name, line = op_line(value)
        lines[name] = line
    return lines


def registry_text(version, lines):
    """The whole .ops file: generate_registry.py's format, with a header naming this route."""
    header = [
        "# TensorFlow %s op registry: every registered op's arguments and attrs (facts only)."
        % version,
        "# Generated by specs/profiles/audit/release_audit.py from the wheel's TF_GetAllOpList;"
        " do not edit. Format: see specs/ops/generate_registry.py.",
    ]
    ordered = [lines[name] for name in sorted(lines, key=lambda n: n.encode())]
    return "\n".join(header + ordered) + "\n"
