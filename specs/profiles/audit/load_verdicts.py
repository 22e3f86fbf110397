#!/usr/bin/env python3
"""Records TensorFlow's load outcome for every plugin of the agreement test, per release (issue 27).

    python3 specs/profiles/audit/load_verdicts.py [--build build/default]
        [--cache /tmp/releases-cache] [--keep] [--only NAME ...] [VERSION ...]

On demand, not in CI (0.5 GB of libraries and a few minutes a release). For each VERSION
(default: the releases 2.5-2.20 not live in CI) it installs the release's libraries into the
cache folder, outside the repository (install_libraries.py), runs the agreement test's program on
them (the command CMake writes to BUILD/tests/tensorflow/load_verdicts_command.txt: tf_driver on
every plugin the agreement covers, and plugin_conformance under `--profile VERSION`), and writes
what TensorFlow did to tests/tensorflow/recorded/VERSION.jsonl, which CTest
`tensorflow.agreement` compares with the suite's verdicts on every run. The program's
own comparison is printed too; a disagreement does not stop the recording. Without --keep a
release's libraries are removed once it is recorded.

--only NAME (repeatable) runs the program on those `--plugin NAME=PATH` plugins of the command
alone and merges their lines into the existing record (a line of the same name replaced; the
header keeps its date and command, which re-records everything, and lists the merge under
`merged`): a plugin added to the agreement test recorded on every release in minutes, where a
whole re-recording takes about 21 minutes (BENCHMARKS.md).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import install_libraries  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
RECORDED = os.path.join(ROOT, "tests", "tensorflow", "recorded")
# Every release 2.5-2.21's last patch but those tensorflow.agreement runs live (2.10.1, 2.15.1,
# 2.21.0).
DEFAULT_RELEASES = ("2.5.3", "2.6.5", "2.7.4", "2.8.4", "2.9.3", "2.11.1", "2.12.1", "2.13.1",
                    "2.14.1", "2.16.2", "2.17.1", "2.18.1", "2.19.1", "2.20.0")


def only_plugins(command, names):
    """The command with only the `--plugin NAME=PATH` plugins named in `names`, and those of
    `names` that a `--plugin-dir FAMILY=DIR` folder holds as `--plugin` of their own (the plugin
    folders, co-loads, mock faults and other plugins left out)."""
    plugin_flags = ("--plugin", "--plugin-dir", "--load-defects", "--mock-plugin")
    kept, found = command[:1], set()
    for flag, value in zip(command[1::2], command[2::2]):
        name = value.split("=", 1)[0]
        if flag not in plugin_flags or (flag == "--plugin" and name in names):
            kept += [flag, value]
        if flag == "--plugin" and name in names:
            found.add(name)
        # A plugin of a folder (`--plugin-dir FAMILY=DIR`): FAMILY/VARIANT is DIR/VARIANT.so.
        if flag == "--plugin-dir":
            family, folder = value.split("=", 1)
            for wanted in sorted(set(names) - found):
                if wanted.startswith(family + "/"):
                    variant = wanted[len(family) + 1:]
                    kept += ["--plugin", "%s=%s" % (wanted, os.path.join(folder, variant + ".so"))]
                    found.add(wanted)
    missing = sorted(set(names) - found)
    if missing:
        raise SystemExit("load_verdicts.py: no --plugin %s in the agreement command"
                         % ", ".join(missing))
    return kept


def merge(record_path, partial_path, names):
    """Replaces or adds the lines of `names` in the record from a partial record."""
    with open(record_path, encoding="utf-8") as source:
        header, *lines = [json.loads(line) for line in source.read().splitlines() if line]
    with open(partial_path, encoding="utf-8") as source:
        partial_header, *partial = [json.loads(line) for line in source.read().splitlines()
                                    if line]
    outcomes = {line["name"]: line for line in lines}
    outcomes.update({line["name"]: line for line in partial if line["name"] in names})
    header.setdefault("merged", []).append({"plugins": sorted(names),
                                            "recorded": partial_header["recorded"],
                                            "command": partial_header["command"]})
    with open(record_path, "w", encoding="utf-8", newline="\n") as out:
        for line in [header] + [outcomes[name] for name in sorted(outcomes)]:
            out.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")


def record(version, build, cache, keep, only=()):
    started = time.monotonic()
    target = os.path.join(cache, version)
    if install_libraries.main(["install_libraries.py", version, target]) != 0:
        raise SystemExit("load_verdicts.py: cannot install TensorFlow %s" % version)
    installed = time.monotonic()
    with open(os.path.join(build, "tests", "tensorflow", "load_verdicts_command.txt"),
              encoding="utf-8") as source:
        command = [line for line in source.read().split("\n") if line]
    record_path = os.path.join(RECORDED, version + ".jsonl")
    record_dir = RECORDED
    re_record = "specs/profiles/audit/load_verdicts.py " + version
    if only:
        if not os.path.exists(record_path):
            raise SystemExit("load_verdicts.py: --only needs a record of %s to merge into"
                             % version)
        command = only_plugins(command, only)
        record_dir = tempfile.mkdtemp(prefix="partial-", dir=cache)
        re_record += "".join(" --only " + name for name in sorted(only))
    written = os.path.join(record_dir, version + ".jsonl")
    before = os.path.getmtime(written) if os.path.exists(written) else None
    command += ["--release", "%s=%s=%s" % (version, os.path.join(target, "tensorflow"), version),
                "--record", record_dir,
                "--record-command", re_record,
                "--work", os.path.join(build, "tests", "tensorflow", "load_verdicts", version),
                "--jobs", "2"]
    status = subprocess.run(command, check=False).returncode
    if not os.path.exists(written) or os.path.getmtime(written) == before:
        raise SystemExit("load_verdicts.py: TensorFlow %s was not recorded (exit %d)"
                         % (version, status))
    if only:
        merge(record_path, written, set(only))
        shutil.rmtree(record_dir, ignore_errors=True)
    if not keep:
        shutil.rmtree(target, ignore_errors=True)
    done = time.monotonic()
    print("load_verdicts.py: %s recorded in %.0f s (install %.0f s), comparison exit %d"
          % (version, done - started, installed - started, status), flush=True)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("versions", nargs="*", default=list(DEFAULT_RELEASES))
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--cache", default="/tmp/releases-cache")
    parser.add_argument("--keep", action="store_true",
                        help="keep each release's libraries in the cache")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="record only this --plugin of the command and merge it into the "
                        "existing record (repeatable)")
    args = parser.parse_args(argv[1:])
    started = time.monotonic()
    for version in args.versions:
        record(version, os.path.abspath(args.build), args.cache, args.keep, tuple(args.only))
    print("load_verdicts.py: %d releases in %.0f s" % (len(args.versions),
                                                      time.monotonic() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
