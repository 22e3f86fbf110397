"""families_in_record.py fails where TensorFlow's CPU refused a family case, and where a case is
missing from the record: a copy of the record with ArgMax's first float case turned into
INVALID_ARGUMENT, then with CumSum's first float case left out, must each fail and name the case.

usage: families_in_record_test.py --op-coverage BIN --record DIR --work DIR
"""

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def tampered_copy(record, work, op, change):
    """The record with op's file changed and every other file a link to the committed one."""
    copy = os.path.join(work, "record-" + op)
    shutil.rmtree(copy, ignore_errors=True)
    os.makedirs(copy)
    for name in os.listdir(record):
        if name != op + ".json.gz":
            os.symlink(os.path.abspath(os.path.join(record, name)), os.path.join(copy, name))
    shutil.copy(os.path.join(record, op + ".json.gz"), copy)
    path = os.path.join(copy, op + ".json.gz")
    with gzip.open(path) as f:
        data = json.load(f)
    change(data["cells"]["float"][0])
    with gzip.open(path, "wt") as f:
        json.dump(data, f)
    return copy


def run(args, record, cases):
    return subprocess.run([sys.executable, os.path.join(HERE, "families_in_record.py"),
                           "--op-coverage", args.op_coverage, "--record", record,
                           "--work", args.work, "--cases", cases], capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--op-coverage", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cases = os.path.join(args.work, "family_cases.json")  # made once for both runs
    subprocess.run([args.op_coverage, "--cases", cases, "--family-ops", "--every-dtype"],
                   check=True)

    def reject(entry):
        entry["cpu"] = {"error": {"code": 3, "message": "Expected dimension in the range"}}

    def leave_out(entry):
        entry.pop("cpu")
        entry["left_out"] = "TensorFlow's CPU died running its cases"

    failures = 0
    for op, change, expected in (("ArgMax", reject, "ArgMax float rank 2 along dimension 1: "
                                  "INVALID_ARGUMENT Expected dimension in the range"),
                                 ("Cumsum", leave_out, "left out of the record: TensorFlow's "
                                  "CPU died")):
        result = run(args, tampered_copy(args.record, args.work, op, change), cases)
        if result.returncode != 1 or expected not in result.stdout:
            failures += 1
            print("FAIL: %s tampered: exit %d, expected a line with %r\n%s%s" % (
                op, result.returncode, expected, result.stdout, result.stderr))
        else:
            print("ok: %s tampered is caught" % op)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
