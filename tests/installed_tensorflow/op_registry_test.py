"""plugin_conformance --tensorflow generates kernel cases from the installed release's op
definitions (harness/kernels/installed_cases.h): the report names the registry the cases came
from, which must be the installed release's, e.g. 2.15.1 for the tensorflow-cpu 2.15.1 wheel
(whose MatMul has no grad_a / grad_b attrs; generated_cases_test.cc pins what that changes).

usage: op_registry_test.py --conformance BIN --plugin PLUGIN --tensorflow DIR --release X.Y.Z
Exit 77 (skipped) when DIR is empty, a failure instead when CI is set.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser()
    for option in ("--conformance", "--plugin", "--tensorflow", "--release"):
        parser.add_argument(option, default="")
    args = parser.parse_args()
    if not args.tensorflow:
        reason = "the TensorFlow release is not configured"
        if os.environ.get("CI"):
            print("FAIL (CI is set, so the TensorFlow tests must run): " + reason)
            return 1
        print("SKIPPED: " + reason)
        return 77
    with tempfile.TemporaryDirectory() as work:
        report_path = os.path.join(work, "report.json")
        done = subprocess.run([args.conformance, args.plugin, "--tensorflow", args.tensorflow,
                               "--tier", "kernels", "--json", report_path],
                              capture_output=True, text=True, timeout=1200)
        report = json.load(open(report_path))
    installed = report.get("installed_tensorflow", {})
    registry = installed.get("kernels", {}).get("op_registry")
    problems = []
    if installed.get("release") != args.release:
        problems.append("installed release %s, expected %s" % (installed.get("release"),
                                                                args.release))
    if registry != args.release:
        problems.append("cases generated from the %s registry, expected %s" % (registry,
                                                                              args.release))
    for problem in problems:
        print("FAILED: " + problem)
    if problems:
        print(done.stdout[-2000:] + done.stderr[-2000:])
        return 1
    print("ok: the cases for TensorFlow %s came from its own op registry" % args.release)
    return 0


if __name__ == "__main__":
    sys.exit(main())
