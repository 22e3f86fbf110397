"""Generated kernel cases (op_coverage --cases) run on TensorFlow's own CPU kernels: how many
TensorFlow rejects. A family (specs/ops/families) whose related inputs are wrong (an axis out of
range, indices not below the dimension, k above it) shows here as INVALID_ARGUMENT.

usage: python generated_cases_in_cpu.py CASES.json [--max-rejected N]
       python generated_cases_in_cpu.py --op-coverage BIN --work DIR
--write-refusals FILE writes specs/ops/families/same_shape_refusals.yaml from the run (over
`op_coverage --cases FILE` of every op, one cell each): the ops every case of which TensorFlow's
CPU rejects, those it dies on, and those it has no kernel for.
The second form writes the cases itself: every op of the built-in families, every dtype it
allows (op_coverage --cases --family-ops --every-dtype), into DIR. CTest reads the same outcomes
from the record instead (tests/recorded_oracle/families_in_record.py, record.families_accepted);
this live form is for measuring a family before it is recorded.

Each op's cases run in a child forked after TensorFlow's import (nothing of its runtime exists
before the fork), so a case that kills TensorFlow's CPU kernel is named and the other ops still
run. Prints one line per rejected or fatal case ("op dtype variant: CODE message"), then a
summary: cases run, rejected (TensorFlow's CPU refused the inputs), without a CPU kernel
(NOT_FOUND or UNIMPLEMENTED for the dtype: no precondition of ours), fatal. Exits 1 when more than
--max-rejected cases (default 0) are rejected or any is fatal.
"""

import argparse
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tf_cases  # noqa: E402
from cpu_refusals import no_kernel  # noqa: E402

def run_op(cases, write):
    """In the child: every case of one op; one JSON line per case."""
    for index, case in cases:
        write({"at": index})
        outcome = tf_cases.run_case(case, "/CPU:0")
        if outcome[0] == "ok":
            write({"ok": index})
        else:
            message = outcome[2].splitlines()[0][:200] if outcome[2] else ""
            write({"error": index, "code": outcome[1], "message": message})


def family_cases(op_coverage, work):
    """Every family op's generated cases, every dtype: the file written."""
    import subprocess

    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "family_cases.json")
    subprocess.run([op_coverage, "--cases", path, "--family-ops", "--every-dtype"], check=True)
    return path


REFUSALS_HEADER = """\
# Ops whose generated same-shape cases TensorFlow 2.21.0's own CPU kernels cannot judge, one cell
# each (float where allowed), measured by tests/tensorflow_oracle/generated_cases_in_cpu.py
# --write-refusals; do not edit. `rejected`: every case refused (INVALID_ARGUMENT: the inputs
# must relate in ways no family in case_families.yaml describes yet); `fatal`: its CPU kernel
# dies on a case (a crash the --tensorflow route would blame on the plugin). The generator gives
# both a not-generated reason instead of cases. `no_cpu_kernel`: its CPU has no kernel for the
# cell's dtype; cases stay generated (another dtype may have one), and op_coverage counts them
# apart.
"""


def write_refusals(path, by_op, per_op):
    groups = {"rejected": [], "fatal": [], "no_cpu_kernel": []}
    for op, op_cases in by_op.items():
        counts = per_op[op]
        if counts["fatal"]:
            groups["fatal"].append(op)
        elif counts["rejected"] and counts["rejected"] + counts["no_kernel"] >= len(op_cases):
            groups["rejected"].append(op)
        elif counts["no_kernel"] >= len(op_cases):
            groups["no_cpu_kernel"].append(op)
    with open(path, "w") as f:
        f.write(REFUSALS_HEADER)
        f.write("same_shape_refusals:\n")
        for group, ops in groups.items():
            f.write("  %s:\n" % group)
            for op in sorted(ops):
                f.write("    - %s\n" % op)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cases", nargs="?")
    parser.add_argument("--max-rejected", type=int, default=0)
    parser.add_argument("--op-coverage")
    parser.add_argument("--work")
    parser.add_argument("--write-refusals")
    args = parser.parse_args()
    if args.op_coverage:
        args.cases = family_cases(args.op_coverage, args.work)
    with open(args.cases) as f:
        cases = [c for c in json.load(f)["cases"] if not c.get("companion")]
    by_op = collections.OrderedDict()
    for index, case in enumerate(cases):
        by_op.setdefault(case["op"], []).append((index, case))
    import tensorflow  # noqa: F401  imported once, before the forks

    counts = collections.Counter()
    rejected_ops = set()
    per_op = collections.defaultdict(collections.Counter)
    for op, op_cases in by_op.items():
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            out = os.fdopen(write_end, "w")

            def write(item):
                out.write(json.dumps(item) + "\n")
                out.flush()

            try:
                run_op(op_cases, write)
            finally:
                os._exit(0)
        os.close(write_end)
        last = None
        with os.fdopen(read_end) as events:
            for line in events:
                event = json.loads(line)
                if "at" in event:
                    last = event["at"]
                elif "ok" in event:
                    counts["ran"] += 1
                    last = None
                    # A case of the op's error path (`cpu_status:`) that computes is a family
                    # whose premise no longer holds.
                    if cases[event["ok"]].get("cpu_status"):
                        counts["rejected"] += 1
                        rejected_ops.add(op)
                        print("%s %s %s: computes, where its family says %s" % (
                            op, cases[event["ok"]]["dtype"], cases[event["ok"]]["variant"],
                            cases[event["ok"]]["cpu_status"]))
                elif (cases[event["error"]].get("cpu_status")
                      == tf_cases.code_name(event["code"])):
                    counts["ran"] += 1  # the status its family says (CheckNumerics on a NaN)
                    last = None
                else:
                    counts["ran"] += 1
                    last = None
                    case = cases[event["error"]]
                    kind = "no_kernel" if no_kernel(event["code"], event["message"]) else "rejected"
                    counts[kind] += 1
                    per_op[op][kind] += 1
                    if kind == "rejected":
                        rejected_ops.add(op)
                    print("%s %s %s: %s %s" % (op, case["dtype"], case["variant"],
                                              tf_cases.code_name(event["code"]),
                                              event["message"]))
        _, status = os.waitpid(pid, 0)
        if last is not None:
            case = cases[last]
            counts["fatal"] += 1
            per_op[op]["fatal"] += 1
            rejected_ops.add(op)
            print("%s %s %s: FATAL, TensorFlow's CPU died (status %d)"
                  % (op, case["dtype"], case["variant"], status))
    print("%d cases of %d ops on TensorFlow's CPU: %d rejected, %d without a CPU kernel, %d fatal"
          " (%d ops with a rejected or fatal case)"
          % (counts["ran"] + counts["fatal"], len(by_op), counts["rejected"], counts["no_kernel"],
             counts["fatal"], len(rejected_ops)))
    if args.write_refusals:
        write_refusals(args.write_refusals, by_op, per_op)
        return 0
    return 1 if counts["rejected"] > args.max_rejected or counts["fatal"] else 0


if __name__ == "__main__":
    sys.exit(main())
