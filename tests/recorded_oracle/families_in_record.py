"""Every case of the op families (specs/ops/families), every dtype their ops allow, as TensorFlow
2.21.0's CPU ran it when the record (specs/ops/record/2.21.0) was made: none rejected (a related
input out of range shows as INVALID_ARGUMENT), none left out because TensorFlow died or refused it,
and every case a family sends down an error path (`cpu_status`) refused with that status.

This reads what generated_cases_in_cpu.py --op-coverage measured by running TensorFlow (over two
minutes on 2 cores, and growing with every family), from the record instead. It holds as long as
the record is current (record.in_sync: every generated case recorded from the same inputs) and
faithful (tensorflow.record.reproduces: a sample run again on the wheel, bit for bit).

usage: families_in_record.py --op-coverage BIN --record DIR --work DIR [--cases FILE]
(--cases: the file `op_coverage --cases FILE --family-ops --every-dtype` wrote; else it is written
into DIR)
"""

import argparse
import collections
import gzip
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tensorflow_oracle"))
from cpu_refusals import code_name, no_kernel  # noqa: E402


def family_cases(op_coverage, work, path=None):
    if not path:
        os.makedirs(work, exist_ok=True)
        path = os.path.join(work, "family_cases.json")
        subprocess.run([op_coverage, "--cases", path, "--family-ops", "--every-dtype"], check=True)
    with open(path) as f:
        return [c for c in json.load(f)["cases"] if not c.get("companion")]


def recorded_entries(record, dtype, cases):
    """The record's entries for each case of one (op, dtype) cell, in order ([] where none).

    The record holds a cell's cases in the generator's order, with its other attr variants
    (ArgMax's Tidx) after them, so each case is the next entry with its shape index and variant.
    The record keys an op's cells by its output's dtype where the generator names the cell by
    another type attr, in two ways:
    - the variant names the cell ("..., out_type=int64": StringToNumber of strings);
    - the record has no cell of the dtype (StatelessRandomNormal's shape dtype T = int32): the
      case is every entry of that shape index and variant, in any cell (each of T's values), or
      of that variant where the cells number their cases apart (StringToNumber's error path)."""
    cells = record.get("cells", {})
    entries = cells.get(dtype, [])
    found = []
    at = 0
    for case in cases:
        key = (case["shape_index"], case["variant"])
        # The same attrs first (Eig's Tout: the record holds its complex64 and complex128 variants
        # of a double cell under one variant name), where op_coverage gave their digest.
        same = [e for e in entries if (e["shape_index"], e["variant"]) == key
                and e.get("attrs") == case.get("attrs_digest")]
        if same:
            found.append(same[:1])
            continue
        while at < len(entries) and (entries[at]["shape_index"], entries[at]["variant"]) != key:
            at += 1
        if at < len(entries):
            found.append([entries[at]])
            at += 1
        elif dtype not in cells:
            everywhere = [entry for cell in cells.values() for entry in cell]
            found.append([e for e in everywhere if (e["shape_index"], e["variant"]) == key]
                         or [e for e in everywhere if e["variant"] == case["variant"]]
                         or entry_in_named_cell(cells, case["variant"]))
        else:
            found.append(entry_in_named_cell(cells, case["variant"]))
    return found


def entry_in_named_cell(cells, variant):
    base, _, named = variant.rpartition(", ")
    attr, _, cell = named.partition("=")
    if not base or not attr or not cell:
        return []
    return [entry for entry in cells.get(cell, []) if entry["variant"] == base][:1]


def outcome(case, entries):
    """(kind, text) of the worst of a case's entries: "ok", "no_kernel", "rejected" or "fatal"."""
    if not entries:
        return "fatal", "not in the record (record.py --op %s)" % case["op"]
    worst = ("ok", "")
    for entry in entries:
        kind, text = entry_outcome(case, entry)
        if RANK[kind] > RANK[worst[0]]:
            worst = (kind, text)
    return worst


RANK = {"ok": 0, "no_kernel": 1, "rejected": 2, "fatal": 3}


def entry_outcome(case, entry):
    if "left_out" in entry:
        return "fatal", "left out of the record: " + entry["left_out"]
    cpu = entry["cpu"]
    expected = case.get("cpu_status")
    if "error" not in cpu:
        if expected:
            return "rejected", "computes, where its family says " + expected
        return "ok", ""
    code, message = cpu["error"]["code"], cpu["error"].get("message", "")
    if expected == code_name(code):
        return "ok", ""
    if no_kernel(code, message):
        return "no_kernel", ""
    return "rejected", "%s %s" % (code_name(code), message.splitlines()[0][:200] if message else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--op-coverage", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cases")
    args = parser.parse_args()
    cells = collections.OrderedDict()
    for case in family_cases(args.op_coverage, args.work, args.cases):
        cells.setdefault((case["op"], case["dtype"]), []).append(case)
    counts = collections.Counter()
    bad_ops = set()
    records = {}
    for (op, dtype), cases in cells.items():
        if op not in records:
            path = os.path.join(args.record, op + ".json.gz")
            records[op] = json.load(gzip.open(path)) if os.path.exists(path) else {}
        record = records[op]
        if "left_out" in record:
            entries = [[{"left_out": record["left_out"]}]] * len(cases)
        else:
            entries = recorded_entries(record, dtype, cases)
        for case, entry in zip(cases, entries):
            kind, text = outcome(case, entry)
            counts[kind] += 1
            if kind in ("rejected", "fatal"):
                bad_ops.add(op)
                print("%s %s %s: %s" % (op, dtype, case["variant"], text))
    total = sum(counts.values())
    print("%d recorded cases of %d ops: %d rejected, %d without a CPU kernel, %d not recorded or "
          "left out (%d ops with a rejected or missing case)"
          % (total, len(records), counts["rejected"], counts["no_kernel"], counts["fatal"],
             len(bad_ops)))
    return 1 if counts["rejected"] or counts["fatal"] or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
