#!/usr/bin/env python3
"""report.long_plugin_strings_are_capped: a plugin whose device type is 100 KB long (the mock
plugin, type=...) gets reports of a sane size that say where strings were cut, and it is
not blamed for anything it did not do.

Usage: check_long_device_type.py PLUGIN_CONFORMANCE MOCK_PLUGIN WORK_DIR
"""
import json
import os
import subprocess
import sys

LIMIT = 4 * 1024 * 1024  # bytes per report; uncapped, this plugin made 36 MB


def main():
    tool, plugin, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    reports = {kind: os.path.join(work, f"long_type.{kind}") for kind in ("json", "xml", "html")}
    env = dict(os.environ, MOCK_PLUGIN_CONFIG="type=" + "A" * 100000)
    run = subprocess.run([tool, plugin, "--seed", "1",
                          "--json", reports["json"], "--junit", reports["xml"],
                          "--html", reports["html"]], env=env, capture_output=True, text=True)
    errors = []
    if run.returncode not in (0, 1):
        errors.append(f"exit {run.returncode}: {run.stderr[-2000:]}")
    for kind, path in reports.items():
        size = os.path.getsize(path) if os.path.exists(path) else -1
        if size < 0 or size > LIMIT:
            errors.append(f"{kind} report is {size} bytes (limit {LIMIT})")
    if os.path.exists(reports["json"]):
        text = open(reports["json"]).read()
        document = json.loads(text)
        if "A" * 5000 in text:
            errors.append("the JSON report holds an uncut 5000-byte run of the device type")
        if "more bytes cut" not in text:
            errors.append("no string of the JSON report says it was cut")
        print(f"check_long_device_type: exit {run.returncode}, {len(document['results'])} "
              f"results, reports "
              + ", ".join(f"{k} {os.path.getsize(p)} bytes" for k, p in reports.items()))
    for message in errors:
        print(message, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
