#!/usr/bin/env python3
"""Chooses the compile configurations clang-tidy checks (.ci/tidy), one database per choice.

A fixture source such as tests/kernel_defects/kernel_plugin.cc is compiled into 131 plugins, each
with its own -D selecting a defect; clang-tidy given that file checks every configuration in turn
(about 5 s each, 11 minutes for that one file). The change's lines need only be checked in
configurations that compile them: each configuration is preprocessed (its own command with -E,
about 0.1 s), the lines of the file it keeps are read off the line markers, and configurations
are chosen greedily until every changed line that any of them compiles is covered. A change to
lines every configuration shares is then checked once, a change inside one defect's #if block in
that defect's configuration.

Usage: tidy_configurations.py DATABASE_DIR OUT_DIR [--changed-since REV] < UNITS (one a line)
  Writes OUT_DIR/<n>/compile_commands.json, one entry each, and prints "OUT_DIR/<n> UNIT" per
  chosen configuration. Without --changed-since every configuration is chosen (.ci/tidy FILE...
  and --all). With it, a unit the diff does not touch (a changed header's stand-in) gets its
  first configuration, and a touched unit the configurations covering its changed lines.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

LINE_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')
HUNK = re.compile(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


def changed_lines(rev, unit):
    """Line numbers of UNIT the diff REV..HEAD adds or changes; None if the diff leaves it alone."""
    diff = subprocess.run(["git", "diff", "-U0", rev, "HEAD", "--", unit],
                          capture_output=True, text=True, check=True).stdout
    if not diff:
        return None
    lines = set()
    for start, count in HUNK.findall(diff):
        first, length = int(start), int(count) if count else 1
        lines.update(range(first, first + length))
    return lines


def preprocess_command(entry):
    """The entry's compile command, writing the preprocessed source to stdout instead."""
    words = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = []
    skip_next = False
    for word in words:
        if skip_next:
            skip_next = False
        elif word == "-o":
            skip_next = True
        elif word == "-c":
            out.append("-E")
        else:
            out.append(word)
    return out


def compiled_lines(entry):
    """Lines of the entry's own file that survive preprocessing with its flags (not blank)."""
    source = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    text = subprocess.run(preprocess_command(entry), cwd=entry["directory"], capture_output=True,
                          text=True, check=True).stdout
    kept = set()
    in_source = False
    line = 0
    for output in text.splitlines():
        marker = LINE_MARKER.match(output)
        if marker:
            line = int(marker.group(1))
            in_source = os.path.realpath(marker.group(2)) == source
            continue
        if in_source and output.strip():
            kept.add(line)
        line += 1
    return kept


def covering(entries, wanted, workers):
    """The fewest entries (greedy) whose compiled lines cover what of WANTED any of them compiles."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        kept = list(pool.map(lambda entry: compiled_lines(entry) & wanted, entries))
    uncovered = set().union(*kept)
    chosen = []
    while uncovered:
        best = max(range(len(entries)), key=lambda i: len(kept[i] & uncovered))
        chosen.append(best)
        uncovered -= kept[best]
    return [entries[i] for i in sorted(chosen)] or entries[:1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("database_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--changed-since")
    args = parser.parse_args()
    with open(os.path.join(args.database_dir, "compile_commands.json"), encoding="utf-8") as db:
        database = json.load(db)
    by_file = {}
    for entry in database:
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        by_file.setdefault(path, []).append(entry)
    workers = os.cpu_count() or 1
    count = 0
    for unit in sys.stdin.read().split():
        entries = by_file.get(os.path.realpath(unit), [])
        chosen = entries
        if args.changed_since and len(entries) > 1:
            wanted = changed_lines(args.changed_since, unit)
            chosen = entries[:1] if wanted is None else covering(entries, wanted, workers)
            print(f"tidy: {unit}: {len(chosen)} of its {len(entries)} configurations", file=sys.stderr)
        for entry in chosen:
            folder = os.path.join(args.out_dir, str(count))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "compile_commands.json"), "w", encoding="utf-8") as out:
                json.dump([entry], out)
            print(folder, unit)
            count += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
