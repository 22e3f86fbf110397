"""The record's kernels are those plugins register (issue 30): index dtypes at every integer dtype
they allow (int32 and int64 among them), a defaulted input type attr at the cell's dtype too, and
cells named by the output's dtype where only index dtypes type the inputs.

usage: record_cells_test.py --dump-tool record_case_dump

DirectML registers GatherV2 for Tindices int32 and int64 and OneHot for TI int32 first; the record
held GatherV2 (float) with Tindices int16 (the first dtype the attr allows) and OneHot with TI at
its default int64 only, so none of those cells was judged. It registers StatelessRandomUniform and
Empty by their `dtype` (float, half), which the record named by the shape's index dtype. It
registers OneHot with TI=uint8 first, and MaxPool3DGrad (half) with TInput=half, which the record
held at int32/int64 and at TInput's default float only.
"""

import argparse
import collections
import json
import subprocess
import sys

UINT8, INT16, INT8, INT32, INT64, FLOAT, HALF = 4, 5, 6, 3, 9, 1, 19


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump-tool", required=True)
    options = parser.parse_args()
    ops = ["GatherV2", "OneHot", "SplitV", "StatelessRandomUniform", "Empty", "MaxPool3DGrad"]
    command = [options.dump_tool] + [arg for op in ops for arg in ("--op", op)]
    dump = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout)
    index_dtypes = collections.defaultdict(set)  # (op, cell dtype, attr) -> recorded dtypes
    cells = collections.defaultdict(set)
    for case in dump["cases"]:
        cells[case["op"]].add(case["dtype"])
        for attr, value in case["attrs"].items():
            if attr in ("Tindices", "Taxis", "TI", "Tlen", "TInput") and "type" in value:
                index_dtypes[(case["op"], case["dtype"], attr)].add(value["type"])
    failures = []
    # The integer dtypes each attr allows in TensorFlow 2.21.0's registry.
    for op, attr, allowed in [("GatherV2", "Tindices", {INT16, INT32, INT64}),
                              ("GatherV2", "Taxis", {INT32, INT64}),
                              ("OneHot", "TI", {UINT8, INT8, INT32, INT64}),
                              ("SplitV", "Tlen", {INT8, INT32, INT64})]:
        for dtype in ("float", "half", "int64"):
            got = index_dtypes.get((op, dtype, attr), set())
            if got != allowed:
                failures.append("%s (%s): %s recorded at %s, expected %s"
                                % (op, dtype, attr, sorted(got), sorted(allowed)))
    for dtype, expected in [("half", {FLOAT, HALF}), ("float", {FLOAT})]:
        got = index_dtypes.get(("MaxPool3DGrad", dtype, "TInput"), set())
        if got != expected:
            failures.append("MaxPool3DGrad (%s): TInput recorded at %s, expected %s"
                            % (dtype, sorted(got), sorted(expected)))
    # Before, StatelessRandomUniform's cells were int32 and int64 (its shape's T) and Empty's
    # int32 only (its shape's fixed dtype).
    for op, expected in [("StatelessRandomUniform", {"half", "bfloat16", "float", "double"}),
                         ("Empty", {"half", "float", "double", "bool", "int64"})]:
        if not expected <= cells[op] or op == "StatelessRandomUniform" and cells[op] != expected:
            failures.append("%s's cells are %s, expected its output dtypes %s"
                            % (op, sorted(cells[op]), sorted(expected)))
    for failure in failures:
        print("FAIL: " + failure)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
