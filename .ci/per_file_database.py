#!/usr/bin/env python3
"""Writes OUT_DIR/compile_commands.json: BUILD_DIR's compilation database with every unity batch
(CMake's Unity/unity_N_<lang>.<ext>) replaced by one entry per source file it includes, compiled
with the batch's command. clang-tidy (.ci/tidy) checks files one by one, each with its own
includes, as they would compile alone; the build compiles them in batches (cmake/UnityBuild.cmake).

Usage: per_file_database.py BUILD_DIR OUT_DIR
"""
import json
import os
import re
import sys

INCLUDE = re.compile(r'^#include "([^"]+)"$', re.MULTILINE)


def expand(entry):
    batch = entry["file"]
    if "/Unity/unity_" not in batch:
        return [entry]
    with open(batch, encoding="utf-8") as text:
        sources = INCLUDE.findall(text.read())
    expanded = []
    for source in sources:
        per_file = dict(entry, file=source)
        if "command" in entry:
            per_file["command"] = entry["command"].replace(batch, source)
        if "arguments" in entry:
            per_file["arguments"] = [source if word == batch else word for word in entry["arguments"]]
        expanded.append(per_file)
    return expanded


def main():
    build_dir, out_dir = sys.argv[1:3]
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as database:
        entries = json.load(database)
    per_file = [expanded for entry in entries for expanded in expand(entry)]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w", encoding="utf-8") as out:
        json.dump(per_file, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
