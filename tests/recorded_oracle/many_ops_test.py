"""The ~300-op plugin of BENCHMARKS.md ("the kernel tier on a plugin of ~300 ops") loads and is
judged from the record.

usage: many_ops_test.py --conformance BIN --plugin SO --work DIR [--min-judged N]

many_ops.so registers one float kernel (input 0 copied to the output) under 306 ops. The run
must load it (it was once built from a source list that fell behind kernel_plugin.cc and had
undefined symbols: the benchmark timed a load failure), judge at least N of its cells from the
record, and crash nowhere: its AsString, SerializeTensor and TensorSummary kernels write float
bytes over a string output, which must fail on the kernel as invalid TF_TString elements
(harness/kernels/tstring_reader.h), not crash the harness reading or freeing them.
"""

import argparse
import json
import os
import subprocess
import sys

STRING_OUTPUT_OPS = ("AsString", "SerializeTensor", "TensorSummary")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--min-judged", type=int, default=200)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    report_path = os.path.join(args.work, "many_ops.json")
    run = subprocess.run([args.conformance, args.plugin, "--tier", "kernels", "--json", report_path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if run.returncode not in (0, 1):
        print(run.stdout[-3000:])
        print("FAIL: exit %d (0 or 1 expected: a loaded plugin, judged)" % run.returncode)
        return 1
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    problems = []
    if not report.get("plugin_loaded"):
        problems.append("the plugin did not load: %s" % report.get("not_conformant_reason"))
    counts = report.get("counts", {})
    for outcome in ("crash", "timeout"):
        if counts.get(outcome):
            problems.append("%d %s outcome(s)" % (counts[outcome], outcome))
    cells = report.get("op_coverage", {}).get("cell_counts", {})
    judged = cells.get("passed", 0) + cells.get("failed", 0)
    if judged < args.min_judged:
        problems.append("%d cells judged from the record (at least %d expected): %s"
                        % (judged, args.min_judged, cells))
    by_id = {r["id"]: r for r in report.get("results", [])}
    for op in STRING_OUTPUT_OPS:
        result = by_id.get("kernel.%s.float.generated" % op)
        if result is None:
            problems.append("no check kernel.%s.float.generated" % op)
        elif result["outcome"] != "fail":
            problems.append("kernel.%s.float.generated: %s (fail expected): %s"
                            % (op, result["outcome"], result.get("message", "")[:300]))
    invalid = by_id.get("kernel.AsString.float.generated", {}).get("message", "")
    if "<invalid TF_TString" not in invalid:
        problems.append("AsString's failure does not name the invalid TF_TString: %s" % invalid[:300])
    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("many_ops.so: loaded, %d cells judged from the record (%s), no crash; the string "
              "outputs fail as invalid TF_TStrings" % (judged, cells))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
