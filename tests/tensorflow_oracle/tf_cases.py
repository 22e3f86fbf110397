"""Kernel cases (kernel_case_dump's JSON) run on a device of real TensorFlow, and compared.

Shared by kernel_oracle.py (reference plugin vs TensorFlow's CPU kernels) and
reference_in_tensorflow.py (the reference plugin loaded into TensorFlow vs the CPU kernels).
The comparison is the kernel tier's own (harness/kernels/host_tensor.cc): exact for integers and
bool, else within atol + rtol*|expected| or `ulp` units in the last place; NaN matches NaN,
infinities match exactly. Signed zeros and NaN payloads pass it; `bitwise` notes them apart.
"""

import re

import numpy as np

# TF_DataType values (tensorflow/c/tf_datatype.h) of the dtypes kernel scenarios use.
DTYPE_ENUM = {
    "float": 1, "double": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "int64": 9,
    "bool": 10, "bfloat16": 14, "uint16": 17, "half": 19, "uint32": 22, "uint64": 23,
}
# Complex dtypes: two parts of float or double each (harness/kernels/complex_values.h).
DTYPE_ENUM.update({"complex64": 8, "complex128": 18})
COMPLEX_PART = {"complex64": "float", "complex128": "double"}
# Quantized dtypes: integers in storage (harness/kernels/dtype_values.h). Their numpy arrays are
# TensorFlow's one-field records ([("qint8", "i1")]), so tf.constant makes the quantized dtype
# and the record names it; compare() reads the integers inside.
DTYPE_ENUM.update({"qint8": 11, "quint8": 12, "qint32": 13, "qint16": 15, "quint16": 16})
QUANTIZED = {"qint8", "quint8", "qint32", "qint16", "quint16"}
ENUM_DTYPE = {value: name for name, value in DTYPE_ENUM.items()}
# TF_Code names, for messages (code_name is re-exported to the scripts that import this module).
from cpu_refusals import CODE_NAMES, code_name  # noqa: E402,F401
# Stand-ins for ops TensorFlow's CPU has no kernel for that any node finds (cpu_stand_in).
import cpu_stand_ins  # noqa: E402
FLOATING = {"float", "double", "half", "bfloat16"}


def numpy_dtype(name):
    import tensorflow as tf  # late: the scripts choose when TensorFlow is imported

    if name == "bfloat16" or name in QUANTIZED:
        return tf.as_dtype(name).as_numpy_dtype
    return {"float": np.float32, "double": np.float64, "half": np.float16, "int32": np.int32,
            "int64": np.int64, "int16": np.int16, "int8": np.int8, "uint8": np.uint8,
            "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
            "bool": np.bool_, "complex64": np.complex64, "complex128": np.complex128}[name]


def decode(tensor):
    """{"dtype", "shape", "hex"} -> numpy array; a string tensor's {"strings": [hex, ...]} -> an
    object array of bytes (harness/kernels/string_values.h), which tf.constant makes tf.string."""
    if "strings" in tensor:
        values = [bytes.fromhex(h) for h in tensor["strings"]]
        array = np.empty(len(values), dtype=object)
        array[:] = values
        return array.reshape(tensor["shape"])
    raw = bytes.fromhex(tensor["hex"])
    return np.frombuffer(raw, dtype=numpy_dtype(tensor["dtype"])).reshape(tensor["shape"])


def storage(array):
    """A quantized array's integers (its one field); any other array as it is."""
    return array.view(array.dtype[0]) if array.dtype.names else array


def host_value(tensor):
    """A result tensor as numpy: a quantized one keeps its dtype (numpy() gives the integers)."""
    if tensor.dtype.is_quantized:
        return tensor.numpy().view(tensor.dtype.as_numpy_dtype)
    return tensor.numpy()


def attr_values(case, op_def):
    """The case's attrs as TFE attribute pairs, limited to those TensorFlow's op defines."""
    defined = {attr.name for attr in op_def.attr}
    pairs, dropped = [], []
    for name, value in sorted(case["attrs"].items()):
        if name not in defined:
            dropped.append(name)
            continue
        (kind, item), = value.items()
        if kind == "unsupported":
            raise ValueError("attr %s of a kind this script cannot pass" % name)
        if kind == "tensor":  # Const's value: a TensorProto (only a graph takes it)
            import tensorflow as tf

            item = tf.make_tensor_proto(decode(item))
        elif kind == "list_s":
            item = [s.encode() for s in item]
        elif kind == "s":
            item = item.encode()
        pairs += [name, item]
    return pairs, dropped


def run_ref_case(case, device, op_def, attrs):
    """A case with reference inputs (ApplyAdam's Ref(T) var): eager execution has no reference
    variables, so the op runs in a graph on tf.compat.v1 variables (use_resource=False) in a
    session; a `variable` output is the reference variable's value after the op."""
    import tensorflow as tf

    # Attrs TensorFlow infers from the inputs are not given again (it refuses them).
    inferred = {arg.type_attr for arg in op_def.input_arg if arg.type_attr}
    inferred |= {arg.number_attr for arg in op_def.input_arg if arg.number_attr}
    given = {name: value for name, value in zip(attrs[::2], attrs[1::2]) if name not in inferred}
    graph = tf.Graph()
    with graph.as_default(), tf.device(device):
        refs, keywords = {}, {}
        for arg, t in zip(op_def.input_arg, case["inputs"]):
            if t.get("ref"):
                refs[t["name"]] = tf.compat.v1.Variable(decode(t), use_resource=False)
                keywords[arg.name] = refs[t["name"]]._ref()  # pylint: disable=protected-access
            else:
                keywords[arg.name] = tf.constant(decode(t))
        keywords.update(given)
        # tf.raw_ops' function fills in the attrs' defaults (the registry's OpDef has none).
        result = getattr(tf.raw_ops, case["op"])(**keywords)
        op = (result if isinstance(result, tf.Tensor) else result[0]).op
        reads = {name: tf.identity(ref) for name, ref in refs.items()}
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(init)
        outputs = iter(session.run(list(op.outputs)))
        after = session.run(reads)  # the op does not run again: only the reads
    return ("ok", [after[o["name"]] if o.get("variable") else next(outputs)
                   for o in case["outputs"]])


# Inputs the quantized convolutions' CPU kernels (oneDNN's) read when the kernel is built, so
# they must be constant nodes of a graph: eager execution refuses every case (INVALID_ARGUMENT
# "filter must be a constant", measured on 2.21.0). Only such a refusal runs the case again in
# a graph (a traced function costs a second; the NOT_FOUND of other dtypes is immediate).
CONSTANT_INPUTS = {"filter"}
NOT_CONSTANT_MESSAGE = "must be a constant"


def needs_constant_inputs(op, outcome):
    return (op.startswith(("QuantizedConv2D", "QuantizedDepthwiseConv2D"))
            and outcome[0] == "error" and NOT_CONSTANT_MESSAGE in outcome[2])


def run_graph_case(case, device, op_def, attrs):
    """A case whose CONSTANT_INPUTS must be graph constants: the op runs in a tf.function that
    holds them as constants and takes the other inputs as arguments (so the graph is not folded
    to a constant before the kernel runs)."""
    import tensorflow as tf

    inferred = {arg.type_attr for arg in op_def.input_arg if arg.type_attr}
    inferred |= {arg.number_attr for arg in op_def.input_arg if arg.number_attr}
    given = {name: value for name, value in zip(attrs[::2], attrs[1::2]) if name not in inferred}
    pairs = list(zip(op_def.input_arg, case["inputs"]))
    fed = [t for arg, t in pairs if arg.name not in CONSTANT_INPUTS]

    @tf.function
    def graph(*values):
        with tf.device(device):
            rest = iter(values)
            keywords = {arg.name: tf.constant(decode(t)) if arg.name in CONSTANT_INPUTS
                        else next(rest) for arg, t in pairs}
            keywords.update(given)
            result = getattr(tf.raw_ops, case["op"])(**keywords)
            return [result] if isinstance(result, tf.Tensor) else list(result)

    with tf.device("/CPU:0"):
        values = [tf.constant(decode(t)) for t in fed]
    return ("ok", [host_value(o) for o in graph(*values)])


def run_tensor_attr_case(case, device, attrs):
    """A case with a tensor attr (Const's value): eager execution cannot pass one (2.21.0:
    UNIMPLEMENTED "Attr value has unhandled type 6"), so the op is a node of a graph run in a
    session. Such ops (Const, HostConst) have no inputs."""
    import tensorflow as tf
    from tensorflow.python.framework import op_def_library

    graph = tf.Graph()
    with graph.as_default(), tf.device(device):
        # Ops without a tf.raw_ops function (HostConst) too; [2] is the node.
        node = op_def_library._apply_op_helper(  # pylint: disable=protected-access
            case["op"], **dict(zip(attrs[::2], attrs[1::2])))[2]
    with tf.compat.v1.Session(graph=graph) as session:
        return ("ok", session.run(list(node.outputs)))


def session_error(error):
    """A session's OpError as a case's outcome: its message starts with where the node was
    defined (this script's paths), and TensorFlow's own text follows the "Node: '...'" line."""
    message = error.message
    marker = message.find("\nNode: '")
    if marker >= 0:
        message = message[message.find("\n", marker + 1) + 1:]
    return ("error", error.error_code, message)


def cpu_stand_in(case, device):
    """The case as TensorFlow's CPU can run it, where it has no kernel for the op itself.

    TopK is TopKV2 with k an attr and int32 indices. TensorFlow's CPU registers one kernel class
    for both under a constraint on `index_type`, an attr TopK does not have, so no TopK node
    finds a CPU kernel (2.21.0: INVALID_ARGUMENT "OpKernel 'TopK' has constraint on attr
    'index_type' not in NodeDef"); TopKV2 with the same k as an int32 input and
    index_type=int32 computes what TopK defines. cpu_stand_ins.REWRITES rewrites the others
    (Conv2DBackpropInputV2 as Conv2DBackpropInput, ...). Other devices run the case as it is.
    """
    if "CPU" in device.upper() and case["op"] in cpu_stand_ins.REWRITES:
        return cpu_stand_ins.REWRITES[case["op"]](case)
    if case["op"] != "TopK" or "CPU" not in device.upper():
        return case
    k = case["attrs"]["k"]["i"]
    attrs = {name: value for name, value in case["attrs"].items() if name != "k"}
    attrs["Tk"] = {"type": DTYPE_ENUM["int32"]}
    attrs["index_type"] = {"type": DTYPE_ENUM["int32"]}
    k_input = {"name": "k", "dtype": "int32", "shape": [],
               "hex": np.array(k, dtype=np.int32).tobytes().hex()}
    return dict(case, op="TopKV2", attrs=attrs, inputs=list(case["inputs"]) + [k_input])


def run_case(case, device):
    """Runs the case's op on `device`. Returns ("ok", [numpy outputs]) or ("error", code, text)."""
    import tensorflow as tf
    from tensorflow.python.eager import context, execute
    from tensorflow.python.framework import op_def_registry

    case = cpu_stand_in(case, device)
    if "CPU" in device.upper() and case["op"] in cpu_stand_ins.COMPUTED:
        # Composed of other CPU ops, or the op's own kernel in an older graph (cpu_stand_ins).
        try:
            return cpu_stand_ins.COMPUTED[case["op"]](case)
        except tf.errors.OpError as error:
            return ("error", error.error_code, error.message)
    op_def = op_def_registry.get(case["op"])
    if op_def is None:
        return ("error", 5, "TensorFlow has no op " + case["op"])
    attrs, _ = attr_values(case, op_def)
    if any("tensor" in value for value in case["attrs"].values()):
        try:
            return run_tensor_attr_case(case, device, attrs)
        except tf.errors.OpError as error:
            return session_error(error)
    if any(t.get("ref") for t in case["inputs"]):
        try:
            return run_ref_case(case, device, op_def, attrs)
        except tf.errors.OpError as error:
            return session_error(error)
    try:
        # A `variable` input is a tf.Variable holding the value, on the device the op runs on
        # (as TensorFlow places a resource op with its variable); the op gets its handle, and a
        # `variable` output is the variable's value after the op (ReadVariableOp).
        variables = {}
        with tf.device(device):
            for t in case["inputs"]:
                if t.get("variable"):
                    variables[t["name"]] = tf.Variable(decode(t))
        with tf.device("/CPU:0"):
            inputs = [variables[t["name"]].handle if t.get("variable") else tf.constant(decode(t))
                      for t in case["inputs"]]
        kernel_outputs = [o for o in case["outputs"] if not o.get("variable")]
        with tf.device(device):
            outputs = iter(execute.execute(case["op"], len(kernel_outputs), inputs=inputs,
                                           attrs=tuple(attrs), ctx=context.context()))
            results = [variables[o["name"]].read_value().numpy() if o.get("variable")
                       else host_value(next(outputs)) for o in case["outputs"]]
    except tf.errors.OpError as error:
        outcome = ("error", error.error_code, error.message)
        if not needs_constant_inputs(case["op"], outcome):
            return outcome
        try:
            return run_graph_case(case, device, op_def, attrs)
        except tf.errors.OpError as graph_error:
            return ("error", graph_error.error_code, graph_error.message)
    return ("ok", results)


def _ordered(values, dtype):
    """Floats as integers whose order is the floats' order (for ULP distances)."""
    width = {"double": 64, "float": 32, "half": 16, "bfloat16": 16}[dtype]
    view = {64: np.int64, 32: np.int32, 16: np.int16}[width]
    bits = np.ascontiguousarray(values).view(view).astype(np.int64)
    sign = np.int64(1) << (width - 1)
    return np.where(bits < 0, -(bits + sign), bits)


def compare_complex(expected, actual, dtype, tolerance):
    """compare() of complex values (harness/kernels/complex_values.h): an element with NaN in
    either part is a complex NaN, matched by any complex NaN; otherwise each part within the
    tolerance of the part dtype."""
    e, a = expected.reshape(-1), actual.reshape(-1)
    e_nan = np.isnan(e.real) | np.isnan(e.imag)
    a_nan = np.isnan(a.real) | np.isnan(a.imag)
    nan_bad = np.flatnonzero(e_nan != a_nan)
    if nan_bad.size:
        i = nan_bad[0]
        return "%d element(s) NaN in one only; first [%d]: %r, expected %r" % (
            nan_bad.size, i, a[i], e[i])
    part = COMPLEX_PART[dtype]
    for name in ("real", "imag"):
        # The complex NaNs matched above count as equal parts here (indices stay the tensor's).
        e_part = np.where(e_nan, 0, getattr(e, name))
        a_part = np.where(e_nan, 0, getattr(a, name))
        problem = compare(np.ascontiguousarray(e_part), np.ascontiguousarray(a_part), part,
                          tolerance)
        if problem:
            return "%s part: %s" % (name, problem)
    return None


def compare(expected, actual, dtype, tolerance):
    """None when `actual` matches `expected` within `tolerance`, else a description."""
    if expected.shape != actual.shape:
        return "shape %s, expected %s" % (list(actual.shape), list(expected.shape))
    if expected.dtype != actual.dtype:
        return "dtype %s, expected %s" % (actual.dtype, expected.dtype)
    expected, actual = storage(expected), storage(actual)
    if dtype in COMPLEX_PART:
        return compare_complex(expected, actual, dtype, tolerance)
    if dtype not in FLOATING:
        bad = np.flatnonzero(expected.reshape(-1) != actual.reshape(-1))
        if bad.size == 0:
            return None
        i = bad[0]
        return "%d element(s) differ; first [%d]: %s, expected %s" % (
            bad.size, i, actual.reshape(-1)[i], expected.reshape(-1)[i])
    e = expected.reshape(-1).astype(np.float64)
    a = actual.reshape(-1).astype(np.float64)
    both_nan = np.isnan(e) & np.isnan(a)
    inf_or_nan = np.isinf(e) | np.isinf(a) | np.isnan(e) | np.isnan(a)
    with np.errstate(invalid="ignore", over="ignore"):
        finite = ~inf_or_nan
        diff = np.where(finite, np.abs(a - e), 0.0)
        allowed = tolerance["atol"] + tolerance["rtol"] * np.abs(np.where(finite, e, 0.0))
        within = (allowed > 0) & (diff <= allowed)
        if tolerance["ulp"] > 0:
            ulps = np.abs(_ordered(expected.reshape(-1), dtype) -
                          _ordered(actual.reshape(-1), dtype))
            within |= ulps <= tolerance["ulp"]
        # Subnormals match zero and each other: TensorFlow's CPU flushes them, other hardware
        # keeps them (the kernel tier's rule, harness/kernels/host_tensor.cc).
        normal = {"double": np.finfo(np.float64).tiny, "half": 2.0 ** -14}.get(dtype, 2.0 ** -126)
        tiny = finite & (np.abs(e) < normal) & (np.abs(a) < normal)
        ok = (e == a) | both_nan | (finite & within) | tiny
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return None
    i = bad[0]
    return "%d element(s) outside the tolerance; first [%d]: %r, expected %r" % (
        bad.size, i, a[i], e[i])


def bitwise_note(expected, actual):
    """Differences the tolerance lets pass: signed zeros, NaN signs/payloads."""
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return None
    if expected.tobytes() == actual.tobytes():
        return None
    expected, actual = storage(expected), storage(actual)
    if np.iscomplexobj(expected):  # per part
        parts = [bitwise_note(np.ascontiguousarray(getattr(expected, p)),
                              np.ascontiguousarray(getattr(actual, p))) for p in ("real", "imag")]
        return "; ".join("%s part: %s" % (p, n) for p, n in zip(("real", "imag"), parts) if n) \
            or None
    e = expected.reshape(-1).astype(np.float64) if expected.dtype != np.bool_ else None
    if e is None:
        return None
    a = actual.reshape(-1).astype(np.float64)
    zeros = np.flatnonzero((e == 0) & (a == 0) & (np.signbit(e) != np.signbit(a)))
    nans = np.flatnonzero(np.isnan(e) & np.isnan(a) & (np.signbit(e) != np.signbit(a)))
    notes = []
    if zeros.size:
        notes.append("zero sign differs at %d element(s) (first [%d]: %r vs %r)" % (
            zeros.size, zeros[0], a[zeros[0]], e[zeros[0]]))
    if nans.size:
        notes.append("NaN sign differs at %d element(s)" % nans.size)
    return "; ".join(notes) or None


def judge(case, expected, actual):
    """Compares two outcomes of one case: (verdict, detail, note).

    An outcome is run_case's tuple. verdict is "agree" or "disagree"."""
    if expected[0] == "error" or actual[0] == "error":
        if expected[0] == actual[0] == "error":
            if expected[1] == actual[1]:
                e_text, a_text = kernel_message(expected[2]), kernel_message(actual[2])
                if e_text != a_text:
                    return "agree", None, "message %r, TensorFlow's %r" % (a_text, e_text)
                return "agree", None, None
            return "disagree", "error %s (%s), expected %s (%s)" % (
                code_name(actual[1]), actual[2], code_name(expected[1]), expected[2]), None
        if expected[0] == "error":
            return "disagree", "ran, expected error %s (%s)" % (
                code_name(expected[1]), expected[2]), None
        return "disagree", "error %s (%s), expected outputs" % (
            code_name(actual[1]), actual[2]), None
    notes = []
    for index, (spec, e, a) in enumerate(zip(case["outputs"], expected[1], actual[1])):
        if a is None:
            return "disagree", "output %d never set" % index, None
        if spec.get("values_undefined"):  # FakeParam's: only its dtype and shape are defined
            e, a = np.zeros_like(e), np.zeros_like(a)
        problem = compare(e, a, spec["dtype"], case["tolerance"])
        if problem:
            return "disagree", "output %d: %s" % (index, problem), None
        note = bitwise_note(e, a)
        if note:
            notes.append("output %d: %s" % (index, note))
    return "agree", None, "; ".join(notes) or None


def kernel_message(text):
    """The kernel's own message: without the eager prefix ("{{function_node ...}} ") and the
    op suffix (" [Op:AddV2]") TensorFlow's Python adds, and without the node suffix
    ("\n\t [[{{node ...}}]]") of graph execution."""
    text = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", text)
    text = re.sub(r"\s*\[Op:[^\]]*\]( name: .*)?$", "", text)
    return re.sub(r"\s*\[\[\{\{node [^}]*\}\}\]\]$", "", text).strip()


def reference_outcome(case):
    """The reference plugin's outcome as recorded by kernel_case_dump, in run_case's form."""
    ref = case["reference"]
    if not ref["has_kernel"]:
        return None
    if ref["harness_error"]:
        return ("error", -1, "harness: " + ref["harness_error"])
    if ref["code"] != 0:
        return ("error", ref["code"], ref["message"])
    return ("ok", [None if o is None else decode(o) for o in ref["outputs"]])

