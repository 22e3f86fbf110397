"""record_agreement judges another recording like a plugin's results: a copy of the committed
record agrees on every cell, and one output changed by a large amount fails exactly its cell.
Needs no TensorFlow: the other recording is made from the committed files."""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile


def agreement(tool, cases, other):
    done = subprocess.run([tool, cases, other], capture_output=True, text=True, check=True)
    lines = done.stdout.strip().splitlines()
    return lines[:-1], json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump-tool", required=True)
    parser.add_argument("--agreement", required=True)
    parser.add_argument("--record", required=True)  # the committed record's release folder
    args = parser.parse_args()
    op = "Neg"
    with tempfile.TemporaryDirectory() as work:
        cases = os.path.join(work, "cases.json")
        with open(cases, "w") as out:
            subprocess.run([args.dump_tool, "--op", op], stdout=out, check=True)
        folder = os.path.join(work, os.path.basename(args.record))
        os.makedirs(folder)
        shutil.copy(os.path.join(args.record, op + ".json.gz"), folder)
        failures, summary = agreement(args.agreement, cases, work)
        if failures or summary["failing_cells"] != 0:
            sys.exit("a copy of the record disagrees with it: %s" % failures)
        path = os.path.join(folder, op + ".json.gz")
        record = json.load(gzip.open(path))
        entry = next(c for c in record["cells"]["float"] if "outputs" in c["cpu"])
        output = entry["cpu"]["outputs"][0]
        output["hex"] = "0000c842" + output["hex"][8:]  # element 0 becomes 100.0
        with gzip.open(path, "wt") as changed:
            json.dump(record, changed)
        failures, summary = agreement(args.agreement, cases, work)
        if summary["failing_cells"] != 1 or not failures[0].startswith("kernel.Neg.float.generated"):
            sys.exit("one changed float output of Neg, but: %s %s" % (failures, summary))
        print("a copy agrees; one changed output fails its cell: " + failures[0][:160])


if __name__ == "__main__":
    main()
