"""The waivers file examples of specs/report/README.md name checks that exist: every `id:` of
an example entry selects at least one check of `plugin_conformance --list` (an example that
matched no check taught vendors a waiver that only warns, issue 29 item 19).

Usage: readme_waiver_examples_test.py PLUGIN_CONFORMANCE README
"""
import re
import subprocess
import sys

sys.dont_write_bytecode = True


def example_ids(readme):
    """The `- id:` values of the yaml blocks in the README's "Waivers file" section."""
    section = readme.split("## Waivers file", 1)[1].split("\n## ", 1)[0]
    ids = []
    for block in re.findall(r"```yaml\n(.*?)```", section, re.S):
        ids += re.findall(r"^- id: (\S+)", block, re.M)
    return ids


def main():
    tool, readme_path = sys.argv[1], sys.argv[2]
    ids = example_ids(open(readme_path, encoding="utf-8").read())
    if not ids:
        print("FAIL: no `- id:` example found in the Waivers file section")
        return 1
    failed = 0
    for glob in ids:
        done = subprocess.run([tool, "--list", "--filter", glob], capture_output=True, text=True,
                              timeout=120)
        checks = [line for line in done.stdout.splitlines() if line.strip()]
        if done.returncode != 0 or not checks:
            print(f"FAIL: example waiver id {glob!r} matches no check: {done.stderr.strip()}")
            failed += 1
        else:
            print(f"ok: {glob!r} matches {len(checks)} check(s), e.g. {checks[0]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
