#!/usr/bin/env python3
"""Where a build's time went: job-seconds per CMake target and per folder, from .ninja_log.

usage: build_cost.py NINJA_LOG BUILD_DIR [TOP]

NINJA_LOG is a finished build's log (format v5; the last entry of each output counts, so an
interrupted and resumed build is measured once). BUILD_DIR is a folder configured from the same
tree with CMake's file API query (an empty .cmake/api/v1/query/codemodel-v2 before `cmake`): it
says which target writes which artifact and where each target is defined. An object is charged
to the target whose CMakeFiles/<target>.dir/ holds it, a link (and the gtest discovery it runs)
to the target whose artifact it writes, anything else (embedding, generated sources) to its
output's folder. A step's time is its wall time, so on a loaded machine the shares compare, not
the sums (BENCHMARKS.md, "CI's time, session 35").
"""
import collections
import glob
import json
import os
import re
import sys


def targets(build_dir):
    reply = os.path.join(build_dir, ".cmake/api/v1/reply")
    index = glob.glob(os.path.join(reply, "codemodel-v2-*.json"))
    if not index:
        sys.exit(f"no codemodel in {reply}: touch {build_dir}/.cmake/api/v1/query/codemodel-v2, "
                 "then configure again")
    model = json.load(open(index[0]))
    artifact, folder = {}, {}
    for entry in model["configurations"][0]["targets"]:
        target = json.load(open(os.path.join(reply, entry["jsonFile"])))
        folder[target["name"]] = target["paths"]["source"]
        for written in target.get("artifacts", []):
            artifact[written["path"]] = target["name"]
    return artifact, folder


def steps(log):
    last = {}
    for line in open(log):
        if line.startswith("#"):
            continue
        start, end, _, output, command_hash = line.rstrip("\n").split("\t")
        last[output] = (int(start), int(end), command_hash)
    edges = collections.defaultdict(list)
    for output, step in last.items():
        edges[step].append(output)
    return edges


def top_folder(path):
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] in ("tests", "harness", "conformance") else parts[0]


def main():
    log, build_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    artifact, folder = targets(build_dir)
    per_target = collections.defaultdict(lambda: [0.0, 0, 0.0])
    per_folder = collections.Counter()
    total = 0.0
    for (start, end, _), outputs in steps(log).items():
        seconds = (end - start) / 1000
        total += seconds
        written = [o for o in outputs if o in artifact]
        output = written[0] if written else sorted(outputs)[0]
        match = re.search(r"(?:^|/)CMakeFiles/([^/]+)\.dir/", output)
        if written:
            name = artifact[output]
            per_target[name][2] += seconds
            where = folder.get(name, "?")
        elif match and output.endswith(".o"):
            name = match.group(1)
            per_target[name][0] += seconds
            per_target[name][1] += 1
            where = folder.get(name, "?")
        else:
            where = os.path.dirname(output) or "."
        per_folder[top_folder(where)] += seconds
    print(f"{sum(1 for _ in steps(log))} steps, {total:.0f} job-seconds")
    print(f"{'target':45s} {'compile':>8s} {'objects':>7s} {'link':>6s} {'total':>7s}  folder")
    ranked = sorted(per_target.items(), key=lambda item: -(item[1][0] + item[1][2]))
    for name, (compiled, objects, linked) in ranked[:top]:
        print(f"{name:45s} {compiled:8.1f} {objects:7d} {linked:6.1f} {compiled + linked:7.1f}"
              f"  {folder.get(name, '')}")
    print("folders:")
    for where, seconds in per_folder.most_common():
        print(f"  {seconds:8.1f}  {100 * seconds / total:5.1f}%  {where}")


if __name__ == "__main__":
    main()
