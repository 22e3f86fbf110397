#!/usr/bin/env python3
"""The targets a configured build compiles that none of its registered tests uses.

usage: unused_targets.py BUILD_DIR

BUILD_DIR is configured (not necessarily built) with CMake's file API query (an empty
.cmake/api/v1/query/codemodel-v2 before `cmake`). A target is used when a test's command or
properties name its artifact (CTestTestfile.cmake, generator expressions already expanded), when
it is a gtest program (its `<target>_NOT_BUILT` placeholder before discovery), or when a used
target depends on it (link and add_dependencies) or names its artifact in a compile definition
(REFERENCE_PLUGIN_PATH="..."). Not seen: a test that is given a folder and looks inside it; the
folders tests are given are printed for a reader to check. Targets outside `all`
(EXCLUDE_FROM_ALL) are left out, as the build does not compile them.
(BENCHMARKS.md, "CI's time, session 35".)
"""
import glob
import json
import os
import re
import subprocess
import sys

WORDS = re.compile(r'[;=|\s"]+')


def main():
    build_dir = os.path.abspath(sys.argv[1])
    reply = os.path.join(build_dir, ".cmake/api/v1/reply")
    model = json.load(open(glob.glob(os.path.join(reply, "codemodel-v2-*.json"))[0]))
    targets = {}
    for entry in model["configurations"][0]["targets"]:
        target = json.load(open(os.path.join(reply, entry["jsonFile"])))
        targets[target["id"]] = target
    by_name = {t["name"]: t for t in targets.values()}
    by_artifact = {}
    for target in targets.values():
        for written in target.get("artifacts", []):
            by_artifact[os.path.join(build_dir, written["path"])] = target["name"]
    # What `all` compiles: every command ninja would run for it, built or not.
    commands = subprocess.run(["ninja", "-C", build_dir, "-t", "commands", "all"], check=True,
                              capture_output=True, text=True).stdout

    used, folders = set(), set()

    def scan(text):
        for word in WORDS.split(text):
            if word in by_artifact:
                used.add(by_artifact[word])
            elif word.startswith(build_dir) and os.path.isdir(word) and word != build_dir:
                folders.add(os.path.relpath(word, build_dir))

    testfiles = glob.glob(os.path.join(build_dir, "**/CTestTestfile.cmake"), recursive=True)
    testfiles += glob.glob(os.path.join(build_dir, "**/*_include.cmake"), recursive=True)
    for testfile in testfiles:
        for line in open(testfile):
            placeholder = re.match(r"\s*add_test\((\S+)_NOT_BUILT ", line)
            if placeholder:
                used.add(placeholder.group(1))
            elif re.match(r"\s*(add_test|set_tests_properties)\(", line):
                scan(line)
    stack = list(used)
    while stack:
        target = by_name[stack.pop()]
        needs = [targets[d["id"]]["name"] for d in target.get("dependencies", [])]
        for group in target.get("compileGroups", []):
            for define in group.get("defines", []):
                needs += [by_artifact[w] for w in WORDS.split(define["define"]) if w in by_artifact]
        for name in needs:
            if name not in used:
                used.add(name)
                stack.append(name)

    def built(target):
        return f"CMakeFiles/{target['name']}.dir/" in commands

    compiled = [t for t in targets.values() if t["type"] != "UTILITY" and built(t)]
    unused = sorted((t["paths"]["source"], t["name"], t["type"]) for t in compiled
                    if t["name"] not in used)
    print(f"{len(compiled)} targets in all, {len(compiled) - len(unused)} used by a test, "
          f"{len(unused)} not:")
    for source, name, kind in unused:
        print(f"  {source:35s} {name:50s} {kind}")
    print("folders given to tests (check by hand):")
    for folder in sorted(folders):
        print(f"  {folder}")


if __name__ == "__main__":
    main()
