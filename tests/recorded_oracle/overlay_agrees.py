"""A release's overlay of the record (specs/ops/record/<release>/, made by overlay.py) is what
that release's CPU computes: its ops, recorded again on the installed wheel of that release,
pass `record_agreement --release R` on every cell, but the cells the overlay names as ones the
release refuses. Without the overlay the same recording fails the overlaid cells, so this test
fails when the kernel tier stops reading an overlay, or when an overlaid value does not
reproduce on its release. On a host whose CPU features differ from the overlay's recording host
(overlay.json's cpu_features) floating results may round otherwise, as TensorFlow's own do from
one host to another: there the cells are reported, and only GraphDefVersion, a value no host
changes, is held to passing with the overlay and failing without it.

usage (with the Python of that release): overlay_agrees.py --release R --recorder record.py
    --dump-tool record_case_dump --agreement record_agreement
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "specs", "ops",
                      "record")
sys.path.insert(0, RECORD)
import record  # noqa: E402


def agreement(tool, release, cases, recording):
    done = subprocess.run([tool, "--release", release, cases, recording], check=True,
                          stdout=subprocess.PIPE, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", required=True)
    parser.add_argument("--recorder", required=True)
    parser.add_argument("--dump-tool", required=True)
    parser.add_argument("--agreement", required=True)
    args = parser.parse_args()
    import tensorflow as tf

    if tf.__version__ != args.release:
        sys.exit("FAIL: the overlay is TensorFlow %s's, the installed one %s" % (
            args.release, tf.__version__))
    folder = os.path.join(RECORD, args.release)
    with open(os.path.join(folder, "overlay.json")) as f:
        manifest = json.load(f)
    ops = sorted(name[:-len(".json.gz")] for name in os.listdir(folder)
                 if name.endswith(".json.gz"))
    op_args = [arg for op in ops for arg in ("--op", op)]
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, args.recorder, "--dump-tool", args.dump_tool, "--out", work]
                       + op_args, check=True, stdout=subprocess.DEVNULL)
        cases = os.path.join(work, "cases.json")
        with open(cases, "w") as out:
            subprocess.run([args.dump_tool] + op_args, check=True, stdout=out)
        with_overlay = agreement(args.agreement, args.release, cases, work)
        without = agreement(args.agreement, manifest["overlay_of"], cases, work)
    failing = [f["id"] for f in with_overlay["failing"] if f["id"] not in manifest["refused"]]
    overlaid = set(manifest["values"])
    caught = {f["id"] for f in without["failing"]}
    same_host = manifest.get("cpu_features") == record.host_features()
    held = overlaid if same_host else {"kernel.GraphDefVersion.int32.generated"} & overlaid
    if not same_host:
        print("OTHER HOST: this CPU's features (%s) differ from the overlay's recording host's "
              "(%s): floating cells are reported, GraphDefVersion alone is held" % (
                  " ".join(record.host_features()), " ".join(manifest.get("cpu_features", []))))
        print("  failing with the overlay: %s" % failing)
        print("  passing without it: %s" % sorted(overlaid - caught))
    problems = []
    if not held:
        problems.append("the overlay holds no cell this host can hold it to")
    if [cell for cell in failing if cell in held or same_host]:
        problems.append("TensorFlow %s's CPU fails its own overlay's judgement on %s" % (
            args.release, [cell for cell in failing if cell in held or same_host]))
    if not held <= caught:
        problems.append("without the overlay, %s's recording should fail every overlaid cell; "
                        "it passes %s" % (args.release, sorted(held - caught)))
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        return 1
    print("TensorFlow %s recorded again: %d ops of its overlay agree with it (%s); without the "
          "overlay %d of its %d cells fail" % (
              args.release, len(ops), "every cell held" if same_host else "GraphDefVersion held",
              len(overlaid & caught), len(overlaid)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
