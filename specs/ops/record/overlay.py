"""Makes an older release's overlay of the recorded oracle (harness/kernels/recorded_oracle.h):
the cells whose values that release's CPU computes otherwise than the committed record's, taken
from a recording of the record's cases on that release's wheel, so a plugin built for it is
judged by what its TensorFlow computes.

usage (no TensorFlow needed):
  python3 overlay.py --release 2.15.1 --agreement AGREEMENT --recording OTHER [--out DIR]

AGREEMENT: what `record_agreement CASES OTHER` printed (its last line is the summary), OTHER the
folder `record.py --out OTHER` wrote with the release's Python. Writes DIR/<release>/ (DIR: this
folder) afresh: <Op>.json.gz holding only the "values" cells, and overlay.json naming them and
the "refused" cells (a dtype or an input the release refuses: no plugin built for it can
register those, so the committed record stays their judge), and the ops that release's CPU
crashed or hung on (`not_recorded`: still judged by the committed record).
"""

import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from record import host_features, read_record, recorded_host, write_record  # noqa: E402


def summary_of(path):
    with open(path) as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    summary = json.loads(lines[-1])
    if "failing" not in summary:
        sys.exit("%s: not record_agreement's output (no `failing` in its last line)" % path)
    return summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", required=True, help="the release OTHER was recorded on")
    parser.add_argument("--agreement", required=True)
    parser.add_argument("--recording", required=True, help="record.py --out OTHER")
    parser.add_argument("--out", default=HERE)
    args = parser.parse_args()
    summary = summary_of(args.agreement)
    base = summary["release"]
    if not os.path.isdir(os.path.join(args.recording, base)):
        sys.exit("%s holds no recording of the record's cases (%s/): the agreement must judge "
                 "it against the record itself, without --release" % (args.recording, base))
    cells, refused = {}, []
    for failing in summary["failing"]:
        if failing["kind"] == "refused":
            refused.append(failing["id"])
            continue
        cells.setdefault(failing["op"], []).append(failing["dtype"])
    folder = os.path.join(args.out, args.release)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    values = []
    for op, dtypes in sorted(cells.items()):
        recorded = read_record(os.path.join(args.recording, base, op + ".json.gz"))
        # Only the record's own cases: a recording made from an older case dump may hold cases
        # the generator no longer makes.
        committed = read_record(os.path.join(HERE, base, op + ".json.gz"))["cells"]
        overlay = {"op": op, "tensorflow": args.release, "seed": recorded["seed"],
                   "overlay_of": base, "cells": {}}
        for dtype in sorted(dtypes):
            cases = {(e["shape_index"], e["attrs"], e["inputs"]) for e in committed[dtype]}
            overlay["cells"][dtype] = [e for e in recorded["cells"][dtype]
                                       if (e["shape_index"], e["attrs"], e["inputs"]) in cases]
        write_record(os.path.join(folder, op + ".json.gz"), overlay)
        values += ["kernel.%s.%s.generated" % (op, dtype) for dtype in sorted(dtypes)]
    # Ops whose cases crashed or hung that release's CPU (record.py left them out whole): no
    # value of that release judges them, so the committed record still does.
    not_recorded = {}
    for name in sorted(os.listdir(os.path.join(args.recording, base))):
        if name.endswith(".json.gz"):
            recorded = read_record(os.path.join(args.recording, base, name))
            committed = os.path.join(HERE, base, name)
            if "left_out" in recorded and os.path.exists(committed) and \
                    "left_out" not in read_record(committed):
                not_recorded[name[:-len(".json.gz")]] = recorded["left_out"]
    # The recording host's CPU features (its host.json, else this host's: overlay.py runs where
    # the recording was made): on another kind of host the same release may round otherwise.
    features = recorded_host(args.recording, base)
    if features is None:
        features = host_features()
    manifest = {"release": args.release, "overlay_of": base, "ops": summary["ops"],
                "values": values, "refused": sorted(refused), "not_recorded": not_recorded,
                "cpu_features": features}
    with open(os.path.join(folder, "overlay.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print("TensorFlow %s: %d cells in %d ops computed otherwise than %s (overlaid), %d refused, "
          "%d ops not recorded (%s)" % (args.release, len(values), len(cells), base, len(refused),
                                        len(not_recorded), ", ".join(not_recorded) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
