"""One plugin run through the kernel tier without TensorFlow: its generated cells are judged from
the recorded oracle (specs/ops/record), and the verdict is the expected one.

usage: recorded_verdict_test.py --conformance BIN --plugin SO --check ID --expect OUTCOME
           [--message TEXT] [--known-failures ID,ID,...] [--stale-record OP] [--every-cell]
           [--profile NAME [--force-runtime]]

--expect fail: the check fails with one root cause naming the check's kernel, nothing else
fails, exit 1 (crash: one root cause, of that check). pass / skipped /
not_supported: the check has that outcome and the run is conformant (exit 0).
--known-failures: the failing checks are exactly these (the reference plugin against the
record, --every-cell). --stale-record OP: the run reads a copy of the record whose entries of
OP were made from other inputs (a changed generator): the check must be skipped saying
"record out of date", never blamed on the plugin. --profile: the run emulates that core
(tf2.16 offers the variable functions that cells with variable inputs need); --force-runtime:
the device tiers run although that core would refuse the plugin (the test plugins' device is
the reference plugin's, built against newer headers than 2.16 exports).
"""

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "ops",
                      "record")


def stale_copy(op, folder):
    """A copy of the record whose `op` entries were made from other inputs."""
    shutil.copytree(RECORD, folder, ignore=shutil.ignore_patterns("*.py", "*.md"))
    path = os.path.join(folder, "2.21.0", op + ".json.gz")
    with gzip.open(path, "rb") as f:
        record = json.loads(f.read())
    for cell in record["cells"].values():
        for entry in cell:
            entry["inputs"] = "0" * 16
    with gzip.open(path, "wb") as f:
        f.write(json.dumps(record).encode())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--check", required=True)
    parser.add_argument("--expect", required=True, choices=["pass", "fail", "crash", "skipped", "not_supported"])
    parser.add_argument("--message", default="")
    parser.add_argument("--known-failures", default="")
    parser.add_argument("--stale-record")
    parser.add_argument("--every-cell", action="store_true")
    parser.add_argument("--profile")
    parser.add_argument("--force-runtime", action="store_true")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="recorded_verdict.")
    try:
        env = dict(os.environ)
        env.pop("PLUGIN_CONFORMANCE_RECORD", None)
        if args.stale_record:
            env["PLUGIN_CONFORMANCE_RECORD"] = os.path.join(work, "record")
            stale_copy(args.stale_record, env["PLUGIN_CONFORMANCE_RECORD"])
        if args.every_cell:
            env["PLUGIN_CONFORMANCE_RECORD_EVERY_CELL"] = "1"
        report_path = os.path.join(work, "report.json")
        profile = ["--profile", args.profile] if args.profile else []
        if args.force_runtime:
            profile.append("--force-runtime")
        run = subprocess.run([args.conformance, args.plugin, "--tier", "kernels", "--json",
                              report_path] + profile, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        report = json.load(open(report_path))
    finally:
        shutil.rmtree(work)
    problems = []
    results = {r["id"]: r for r in report["results"]}
    check = results.get(args.check)
    failing = sorted(r["id"] for r in report["results"]
                     if r["outcome"] in ("fail", "crash", "timeout"))
    if check is None:
        problems.append("no result for %s" % args.check)
    else:
        if check["outcome"] != args.expect:
            problems.append("%s is %s, expected %s: %s" % (
                args.check, check["outcome"], args.expect, check.get("message", "")))
        if args.message and args.message not in check.get("message", ""):
            problems.append("%s says %r, which lacks %r" % (args.check, check.get("message"),
                                                           args.message))
    if args.known_failures:
        known = sorted(args.known_failures.split(","))
        if failing != known:
            problems.append("failing checks %s, expected exactly %s" % (failing, known))
    elif args.expect in ("fail", "crash"):
        op = args.check.split(".")[1]
        if failing != [args.check]:
            problems.append("failing checks %s, expected only %s" % (failing, args.check))
        causes = report.get("root_causes", [])
        # A crash is the isolating parent's result: its cause is named by the check (the
        # kernel unit's crashes carry no kernel detail either).
        named = (causes[0].get("kernel") == op if args.expect == "fail"
                 else causes[0].get("checks") == [args.check]) if len(causes) == 1 else False
        if not named:
            problems.append("root causes %s, expected one naming the %s kernel" % (causes, op))
    elif failing:
        problems.append("failing checks %s, expected none" % failing)
    expected_exit = 1 if failing else 0
    if run.returncode != expected_exit:
        problems.append("exit code %d, expected %d" % (run.returncode, expected_exit))
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        print(run.stdout[-3000:])
        return 1
    print("ok: %s %s (%s)" % (args.check, check["outcome"], check.get("message", "")[:300]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
