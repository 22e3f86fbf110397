"""The recorded TensorFlow oracle (harness/kernels/recorded_oracle.h): the generated cases of
every op of TensorFlow's registry, run on TensorFlow's CPU kernels, written one gzip file per op.

usage (with the Python of the TensorFlow the record is made from, 2.21.0):
  python record.py --dump-tool build/default/bin/record_case_dump [--out DIR] [--op OP]...
      record: writes DIR/<release>/<Op>.json.gz (DIR: this folder) for every op with cases
  python record.py --dump-tool ... --check-digests
      without TensorFlow: every case the generator makes now has a record entry made from the
      same inputs, and the record holds no case the generator no longer makes
  python record.py --dump-tool ... --reproduce N
      runs N cells (spread over the ops, the same every time) on the installed TensorFlow again
      and checks every result is the recorded one, bit for bit on a host with the recording
      host's CPU features (host.json), elsewhere but for floating outputs' bits

Each op runs in a worker process: a case that crashes or hangs TensorFlow's CPU leaves that op
out of the record with the reason, and the others are recorded. Stateful ops are left out whole:
their CPU draws new values on every run, so no recorded value can judge them.
"""

import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "tensorflow_oracle"))

OP_SECONDS = 120  # a worker still busy with one op after this long is hung
MESSAGE_CHARS = 300  # TensorFlow's error messages, shortened: the code is what is judged
EVERY_FROM_BYTES = 4096  # an output this large whose elements are all equal is written as one


def dump_cases(tool, ops):
    command = [tool] + [arg for op in ops for arg in ("--op", op)]
    return json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout)


def by_op(dump):
    ops = collections.OrderedDict()
    for case in dump["cases"]:
        ops.setdefault(case["op"], []).append(case)
    return ops


def output_json(array):
    """A result tensor as the --tensorflow driver reports it: {dtype, shape, hex}; a string
    tensor as {dtype, shape, strings: [hex of each element's bytes]} (string_values.h)."""
    import numpy as np
    import tensorflow as tf

    array = np.asarray(array)
    if array.dtype.kind in "OSU":
        values = [v.encode() if isinstance(v, str) else bytes(v) for v in array.reshape(-1)]
        return {"dtype": tf.string.as_datatype_enum, "shape": list(array.shape),
                "strings": [v.hex() for v in values]}
    dtype = tf.as_dtype(array.dtype)
    raw = np.ascontiguousarray(array).tobytes()
    element = raw[:array.itemsize]
    if len(raw) >= EVERY_FROM_BYTES and raw == element * array.size:
        # One element for all: Fill's [65537] case was 18.6 MB of its file's 18.6 MB as hex,
        # which the kernel tier parsed whole for every run of a plugin registering Fill.
        return {"dtype": dtype.as_datatype_enum, "shape": list(array.shape),
                "every": element.hex()}
    return {"dtype": dtype.as_datatype_enum, "shape": list(array.shape), "hex": raw.hex()}


# Type attrs TensorFlow's CPU kernel ignores, reading the input they type as another dtype, so
# with another value it reads a tensor of another size, past its end: no oracle for those cases.
# - SparseAdd's kernels are registered by T alone and read thresh as T's real type whatever
#   Treal says (tf.sparse.add passes that type): a uint8 thresh read as float took 3 bytes past
#   it, and two recordings of the same case differed (measured on 2.21.0).
# - ArgMax's and ArgMin's read the dimension as int32 whatever Tidx says: an int16 dimension of 1
#   was read as -666173439 in one recording and 559874049 or 1 in another (its two bytes and two
#   past it; 72 of the 105 int16 cases refused with those "dimensions", 33 computed, measured on
#   2.21.0), so with int16 the CPU's result is whatever memory follows the tensor.
# op -> (attr, the dtype enum the kernel reads given the case's attrs, the input's name).
IGNORED_TYPE_ATTRS = {
    "SparseAdd": ("Treal", lambda attrs: {8: 1, 18: 2}.get(attrs["T"]["type"], attrs["T"]["type"]),
                  "thresh"),
    "ArgMax": ("Tidx", lambda attrs: 9 if attrs["Tidx"]["type"] == 9 else 3, "dimension"),
    "ArgMin": ("Tidx", lambda attrs: 9 if attrs["Tidx"]["type"] == 9 else 3, "dimension"),
}
DTYPE_NAMES = {1: "float", 2: "double", 3: "int32", 9: "int64"}


def ignored_type_attr(case):
    """Why TensorFlow's CPU is no oracle for the case, or None."""
    rule = IGNORED_TYPE_ATTRS.get(case["op"])
    if not rule:
        return None
    attr, reads, name = rule
    attrs = case["attrs"]
    given = attrs.get(attr, {}).get("type")
    try:
        read = reads(attrs)
    except KeyError:
        return None
    if given is None or given == read:
        return None
    return ("TensorFlow's CPU kernel reads the input %s as %s whatever %s says, so with %s of "
            "another dtype it reads past that tensor" % (
                name, DTYPE_NAMES.get(read, "the real type of T"), attr, attr))


def run_on_cpu(case):
    """{"cpu": result} or {"left_out": why} for one case."""
    import tf_cases

    ignored = ignored_type_attr(case)
    if ignored:
        return {"left_out": ignored}
    try:
        outcome = tf_cases.run_case(case, "/CPU:0")
    except Exception as why:  # TensorFlow's Python refuses the case before any kernel runs
        return {"left_out": "TensorFlow's Python API refuses the case: %s: %s" % (
            type(why).__name__, str(why)[:MESSAGE_CHARS])}
    if outcome[0] == "error":
        return {"cpu": {"error": {"code": int(outcome[1]),
                                  "message": outcome[2][:MESSAGE_CHARS]}}}
    try:
        outputs = [output_json(o) for o in outcome[1]]
    except ValueError as why:
        return {"left_out": "TensorFlow's CPU gives %s, which the suite cannot compare" % why}
    for spec, output in zip(case["outputs"], outputs):
        # Values the op leaves undefined (FakeParam's): whatever the CPU's memory held would make
        # the record differ run to run; zeros of the size keep it reproducible, and the kernel
        # tier judges only the dtype and shape.
        if spec.get("values_undefined") and "hex" in output:
            output["hex"] = "00" * (len(output["hex"]) // 2)
    return {"cpu": {"outputs": outputs}}


def in_float64(case):
    """The case as its float64 run (harness/kernels/float64_runs.h) spells it: the half and
    bfloat16 sums of specs/ops/families/float64_judged_sums.yaml, inputs widened to double."""
    run = case["float64_run"]
    return dict(case, dtype="double", attrs=run["attrs"], inputs=run["inputs"])


def float64_result(case, result):
    """{"float64": TensorFlow's CPU outputs for the case in float64}, or {} when the case carries
    no float64 run (another op or dtype, or a companion) or either run gave no outputs."""
    if "float64_run" not in case or "outputs" not in result.get("cpu", {}):
        return {}
    wide = run_on_cpu(in_float64(case))
    if "outputs" not in wide.get("cpu", {}):
        return {}
    return {"float64": wide["cpu"]}


def recorded_result(case):
    """What the record holds for one case: its CPU result, with its float64 run where judged so."""
    result = run_on_cpu(case)
    result.update(float64_result(case, result))
    return result


def entry_of(case, result):
    entry = {"shape_index": case["shape_index"], "variant": case.get("variant", ""),
             "attrs": case["attrs_digest"], "inputs": case["inputs_digest"]}
    entry.update(result)
    return entry


def op_record(op, cases, dump, stateful):
    record = {"op": op, "tensorflow": dump["tensorflow"], "seed": dump["seed"]}
    if stateful:
        record["left_out"] = ("a stateful op: TensorFlow's CPU draws new values on every run, so "
                              "no recorded value can judge it")
        return record
    cells = collections.OrderedDict()
    for case in cases:
        cells.setdefault(case["dtype"], []).append(entry_of(case, recorded_result(case)))
    record["cells"] = cells
    import cpu_stand_ins  # late: numpy, which only the wheel's python has

    if op in cpu_stand_ins.DESCRIPTIONS:
        record["stand_in"] = cpu_stand_ins.DESCRIPTIONS[op]
    return record


def write_record(path, record):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps(record, separators=(",", ":"), sort_keys=True).encode()
    # mtime 0: the same record gives the same bytes, so re-recording changes only what changed.
    with open(path, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0, filename="") as f:
            f.write(text)


def read_record(path):
    with gzip.open(path, "rb") as f:
        return json.loads(f.read())


def worker(args):
    """Records the ops named on stdin, one a line, saying each as it starts and ends."""
    import tensorflow as tf

    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    dump = json.load(open(args.cases))
    ops = by_op(dump)
    stateful = set(dump["stateful"])
    for line in sys.stdin:
        op = line.strip()
        print("start " + op, flush=True)
        record = op_record(op, ops[op], dump, op in stateful)
        write_record(os.path.join(args.out, dump["tensorflow"], op + ".json.gz"), record)
        print("done " + op, flush=True)


# The CPU features TensorFlow's CPU kernels (Eigen, oneDNN) choose their code paths by: two
# hosts that differ in them may round floating results differently (a half convolution 2.6%
# apart, a double MatMul over 1100 terms in its last bits), so bit-for-bit reproduction is
# expected only on a host like the recording's (host.json beside the record's files).
NUMERIC_CPU_FEATURES = ("avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw",
                        "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni",
                        "amx_tile", "amx_bf16", "amx_int8")


def host_features():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:
        flags = []
    return sorted(set(flags) & set(NUMERIC_CPU_FEATURES))


def host_path(out, release):
    return os.path.join(out, release, "host.json")


def recorded_host(out, release):
    try:
        with open(host_path(out, release)) as f:
            return json.load(f)["cpu_features"]
    except (OSError, ValueError, KeyError):
        return None


def record_all(args, dump):
    ops = list(by_op(dump))
    os.makedirs(args.out, exist_ok=True)
    cases_path = os.path.join(args.out, ".cases.json")
    with open(cases_path, "w") as f:
        json.dump(dump, f)
    pending = collections.deque(ops)
    left_out = []
    started = time.time()
    try:
        while pending:
            process = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--worker", "--cases", cases_path,
                 "--out", args.out], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            process.stdin.write("".join(op + "\n" for op in pending))
            process.stdin.close()
            current = None
            watchdog = None
            for line in process.stdout:
                if watchdog:
                    watchdog.cancel()
                # One op still running after OP_SECONDS is hung: the worker is stopped.
                watchdog = threading.Timer(OP_SECONDS, process.kill)
                watchdog.start()
                kind, op = line.split()
                if kind == "start":
                    current = op
                else:
                    pending.popleft()
                    current = None
                    if len(pending) % 100 == 0:
                        print("%d ops left, %.0f s" % (len(pending), time.time() - started),
                              flush=True)
            code = process.wait()
            if watchdog:
                watchdog.cancel()
            if current is not None:
                # The worker died in this op: it is left out with the reason, the rest go on.
                why = ("TensorFlow's CPU hung running its cases (over %d s)" % OP_SECONDS
                       if code == -9 else
                       "TensorFlow's CPU died running its cases (exit status %d)" % code)
                write_record(os.path.join(args.out, dump["tensorflow"], current + ".json.gz"),
                             {"op": current, "tensorflow": dump["tensorflow"],
                              "seed": dump["seed"], "left_out": why})
                left_out.append((current, why))
                pending.popleft()
    finally:
        os.remove(cases_path)
    if not args.op:
        with open(host_path(args.out, dump["tensorflow"]), "w") as f:
            json.dump({"cpu_features": host_features()}, f)
            f.write("\n")
    elif recorded_host(args.out, dump["tensorflow"]) not in (None, host_features()):
        print("WARNING: this host's CPU features differ from those the rest of the record was "
              "made on (host.json): its floating results may differ in their last bits")
    print("recorded %d ops (%d cases) in %.0f s; left out after a crash: %s" % (
        len(ops), len(dump["cases"]), time.time() - started,
        ", ".join(op for op, _ in left_out) or "none"))
    return 0


def record_files(out, release):
    folder = os.path.join(out, release)
    return {name[:-len(".json.gz")]: os.path.join(folder, name)
            for name in sorted(os.listdir(folder)) if name.endswith(".json.gz")}


def overlay_problems(out, dump, ops):
    """Every entry of a release's overlay (overlay.py) is a case the generator still makes, from
    the same inputs: a stale overlay would judge a plugin built for that release by old inputs."""
    problems = []
    made = {(case["op"], case["dtype"], case["shape_index"], case["attrs_digest"]):
            case["inputs_digest"] for case in dump["cases"]}
    for release in sorted(os.listdir(out)):
        if release == dump["tensorflow"] or not os.path.isfile(
                os.path.join(out, release, "overlay.json")):
            continue
        for op, path in record_files(out, release).items():
            if op not in ops:
                continue  # --op: another op's overlay
            for dtype, cell in read_record(path)["cells"].items():
                for entry in cell:
                    inputs = made.get((op, dtype, entry["shape_index"], entry["attrs"]))
                    if inputs != entry["inputs"]:
                        problems.append("%s overlay: %s (%s) #%d is %s" % (
                            release, op, dtype, entry["shape_index"],
                            "no longer generated" if inputs is None else
                            "made from other inputs than the generator's"))
    return problems


def check_digests(args, dump):
    """Every generated case has an entry made from the same inputs, and no stale file stays."""
    files = record_files(args.out, dump["tensorflow"])
    problems = []
    ops = by_op(dump)
    for op, cases in ops.items():
        if op not in files:
            problems.append("%s: no record file" % op)
            continue
        record = read_record(files[op])
        if "left_out" in record:
            continue
        entries = {(dtype, e["shape_index"], e["attrs"]): e["inputs"]
                   for dtype, cell in record["cells"].items() for e in cell}
        for case in cases:
            key = (case["dtype"], case["shape_index"], case["attrs_digest"])
            if key not in entries:
                problems.append("%s: no entry for %s #%d" % (op, case["id"], case["shape_index"]))
            elif entries.pop(key) != case["inputs_digest"]:
                problems.append("%s: %s #%d has other inputs than the record's" % (
                    op, case["id"], case["shape_index"]))
        for dtype, shape_index, _ in entries:
            problems.append("%s: the record's %s #%d is no longer generated" % (
                op, dtype, shape_index))
    if not args.op:
        problems += ["%s: a record file, but the generator makes no case of it" % op
                     for op in files if op not in ops]
    problems += overlay_problems(args.out, dump, ops)
    for problem in problems[:50]:
        print("OUT OF DATE " + problem)
    print("%d ops, %d cases: %d problem(s)%s" % (
        len(ops), len(dump["cases"]), len(problems),
        "; re-record (specs/ops/record/README.md)" if problems else ""))
    return 1 if problems else 0


FLOATING_DTYPES = {1, 2, 8, 14, 18, 19}  # float, double, complex64, bfloat16, complex128, half


def floating_only_difference(now, entry):
    """Both computed the same outputs' dtypes and shapes (in float64 too, where run so), and
    only floating outputs differ."""
    for key in ("cpu", "float64"):
        if (key in now) != (key in entry):
            return False
        a, b = now.get(key, {}).get("outputs"), entry.get(key, {}).get("outputs")
        if key == "float64" and key not in now:
            continue
        if a is None or b is None or len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if x["dtype"] != y["dtype"] or x["shape"] != y["shape"]:
                return False
            if x != y and x["dtype"] not in FLOATING_DTYPES:
                return False
    return True


def reproduce(args, dump):
    """Runs a fixed sample of cells again on the installed TensorFlow: bit-identical results."""
    import tensorflow as tf

    if tf.__version__ != dump["tensorflow"]:
        print("FAIL: the record is TensorFlow %s's, this is %s" % (dump["tensorflow"],
                                                                  tf.__version__))
        return 1
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.threading.set_intra_op_parallelism_threads(1)
    files = record_files(args.out, dump["tensorflow"])
    cells = collections.OrderedDict()
    for case in dump["cases"]:
        cells.setdefault((case["op"], case["dtype"]), []).append(case)
    keys = list(cells)
    step = max(1, len(keys) // args.reproduce)
    sample = keys[::step][:args.reproduce]
    compared, problems, host_differences = 0, [], []
    recorded = recorded_host(args.out, dump["tensorflow"])
    same_host = recorded == host_features()
    for op, dtype in sample:
        record = read_record(files[op])
        if "left_out" in record:
            continue
        entries = {(e["shape_index"], e["attrs"]): e for e in record["cells"].get(dtype, [])}
        for case in cells[(op, dtype)]:
            entry = entries.get((case["shape_index"], case["attrs_digest"]))
            if entry is None or entry["inputs"] != case["inputs_digest"]:
                problems.append("%s #%d: no entry made from these inputs" % (
                    case["id"], case["shape_index"]))
                continue
            now = entry_of(case, recorded_result(case))
            compared += 1
            if "cpu" in now and "error" in now["cpu"] and "cpu" in entry:
                # The code is what is judged; a message may name a memory address.
                if entry["cpu"].get("error", {}).get("code") == now["cpu"]["error"]["code"]:
                    continue
            if now != entry and not same_host and floating_only_difference(now, entry):
                host_differences.append(case["id"])
                continue
            if now != entry:
                problems.append("%s #%d (%s): TensorFlow %s gives %s, the record %s" % (
                    case["id"], case["shape_index"], case.get("variant", ""), tf.__version__,
                    json.dumps(now.get("cpu", now))[:200], json.dumps(entry.get("cpu", entry))[:200]))
    for problem in problems:
        print("DIFFERS " + problem)
    if host_differences:
        print("OTHER HOST: this CPU's features (%s) differ from the recording host's (%s): %d "
              "cases differ only in floating outputs' bits (%s); tensorflow.record."
              "agrees_with_itself judges them within their tolerance" % (
                  " ".join(host_features()),
                  " ".join(recorded) if recorded is not None
                  else "unknown: the record predates host.json",
                  len(host_differences), ", ".join(sorted(set(host_differences)))))
    print("%d cells, %d cases run again on TensorFlow %s: %d differ%s" % (
        len(sample), compared, tf.__version__, len(problems),
        "" if same_host else " (a host unlike the recording's: floating bits not compared)"))
    return 1 if problems or compared == 0 else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump-tool", help="record_case_dump")
    parser.add_argument("--out", default=HERE, help="the record's folder (default: this one)")
    parser.add_argument("--op", action="append", default=[], help="only these ops")
    parser.add_argument("--check-digests", action="store_true")
    parser.add_argument("--reproduce", type=int, metavar="CELLS")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cases", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if not args.dump_tool:
        parser.error("--dump-tool is required")
    dump = dump_cases(args.dump_tool, args.op)
    if args.check_digests:
        return check_digests(args, dump)
    if args.reproduce:
        return reproduce(args, dump)
    return record_all(args, dump)


if __name__ == "__main__":
    sys.exit(main())
