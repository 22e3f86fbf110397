"""The kernel oracle: every case of the built-in kernel scenarios, run on TensorFlow's own CPU
kernels, against the reference plugin's results (kernel_case_dump) and the scenarios' literal
expectations.

usage: python kernel_oracle.py --cases DUMP.json [--json OUT.json] [--verbose]
   or: python kernel_oracle.py --dump-tool build/default/bin/kernel_case_dump [--reference SO] [...]

A cell is one (op, dtype): it agrees when every case of it agrees (same error code, or the same
output dtypes and shapes and values within the scenario's tolerance). Prints every disagreeing
case and the agreement percentage; exits 1 when a cell disagrees or a literal expectation is
not what TensorFlow does.
"""

import argparse
import collections
import json
import subprocess
import sys

import tf_cases


def load_cases(args):
    if args.cases:
        with open(args.cases) as f:
            return json.load(f)
    command = [args.dump_tool] + (["--reference", args.reference] if args.reference else [])
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def literal_outcome(case):
    expect = case["expect"]
    if expect["kind"] == "error":
        return ("error", expect["code"], "the scenario's expect: error")
    if expect["kind"] == "values":
        return ("ok", [tf_cases.decode(t) for t in expect["outputs"]])
    return None


def main():
    parser = argparse.ArgumentParser()
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cases")
    source.add_argument("--dump-tool")
    parser.add_argument("--reference", help="the plugin --dump-tool runs the cases on (default: "
                        "the reference plugin); the oracle's own test gives it a defective one")
    parser.add_argument("--json", help="write every case's verdict here")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    dump = load_cases(args)
    import tensorflow as tf

    print("TensorFlow %s, %d cases, seed %d" % (tf.__version__, len(dump["cases"]), dump["seed"]))
    cells = collections.OrderedDict()
    records, rule_problems, notes = [], [], []
    for case in dump["cases"]:
        cell = (case["op"], case["dtype"])
        cells.setdefault(cell, [])
        reference = tf_cases.reference_outcome(case)
        if reference is None:
            cells[cell].append("no_kernel")
            continue
        tensorflow = tf_cases.run_case(case, "/CPU:0")
        if tensorflow[0] == "error" and "Could not find device for node" in tensorflow[2]:
            # TensorFlow's CPU has no kernel for this op and dtype: nothing to compare with.
            cells[cell].append("tf_no_kernel")
            records.append({"id": case["id"], "shape_index": case["shape_index"],
                            "verdict": "tf_no_kernel", "detail": tensorflow[2]})
            continue
        verdict, detail, note = tf_cases.judge(case, tensorflow, reference)
        cells[cell].append(verdict)
        label = "%s #%d" % (case["id"], case["shape_index"])
        if verdict != "agree":
            print("DISAGREE %s: reference %s" % (label, detail))
        elif args.verbose and tensorflow[0] == "error":
            print("agree %s: both %s; TensorFlow says: %s" % (
                label, tf_cases.code_name(tensorflow[1]), tensorflow[2]))
        if note:
            notes.append("%s: reference vs TensorFlow: %s" % (label, note))
        literal = literal_outcome(case)
        if literal is not None:
            rule_verdict, rule_detail, _ = tf_cases.judge(case, tensorflow, literal)
            if rule_verdict != "agree":
                rule_problems.append("%s: TensorFlow does not do what the scenario expects: %s"
                                     % (label, rule_detail.replace("expected", "scenario says")))
        records.append({"id": case["id"], "shape_index": case["shape_index"],
                        "verdict": verdict, "detail": detail, "note": note,
                        "tensorflow_error": tensorflow[2] if tensorflow[0] == "error" else None})

    compared = {cell: v for cell, v in cells.items()
                if any(x in ("agree", "disagree") for x in v)}
    agreeing = [cell for cell, v in compared.items() if "disagree" not in v]
    for cell, verdicts in cells.items():
        if "tf_no_kernel" in verdicts:
            print("note: TensorFlow's CPU has no %s kernel for %s" % cell)
        if all(v == "no_kernel" for v in verdicts):
            print("note: the reference plugin registers no %s kernel for %s" % cell)
    for note in notes:
        print("bitwise: " + note)
    for problem in rule_problems:
        print("RULE " + problem)
    total = len(compared)
    percent = 100.0 * len(agreeing) / total if total else 0.0
    print("%d of %d op x dtype cells agree with TensorFlow's CPU kernels (%.1f%%); "
          "%d rule problem(s)" % (len(agreeing), total, percent, len(rule_problems)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tensorflow": tf.__version__, "cells": total, "agreeing": len(agreeing),
                       "disagreeing": sorted("%s.%s" % c for c in compared if c not in agreeing),
                       "cases": records, "rule_problems": rule_problems}, f, indent=1)
    ok = len(agreeing) == total and total > 0 and not rule_problems
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
