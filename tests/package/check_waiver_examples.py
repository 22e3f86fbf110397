#!/usr/bin/env python3
"""package.waiver_examples: every waivers file the project ships as an example is accepted by
plugin_conformance, and each of its check-id entries matches at least one check of the
catalogue (an example that waives nothing teaches nothing).

Usage: check_waiver_examples.py PLUGIN_CONFORMANCE PLUGIN FILE...
"""
import re
import subprocess
import sys

import yaml


def glob_regex(glob):
    return re.compile("^" + "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in glob) + "$")


def main():
    tool, plugin, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    listed = subprocess.run([tool, "--list"], capture_output=True, text=True, check=True).stdout.split()
    ids = [word for word in listed if re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_]+)+", word)]
    errors = []
    for path in files:
        run = subprocess.run([tool, plugin, "--waivers", path, "--tier", "load",
                              "--filter", "load.library.*", "--seed", "1"],
                             capture_output=True, text=True)
        if run.returncode == 2:
            errors.append(f"{path}: plugin_conformance refuses it: {run.stderr.strip()}")
        for entry in yaml.safe_load(open(path)) or []:
            if "id" in entry and not any(glob_regex(entry["id"]).match(i) for i in ids):
                errors.append(f"{path}: waiver '{entry['id']}' matches no check of the catalogue")
    for message in errors:
        print(message, file=sys.stderr)
    if not errors:
        print(f"check_waiver_examples: {len(files)} files accepted; every id matches a check "
              f"(of {len(ids)})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
