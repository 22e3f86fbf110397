"""The fields of a profile (specs/profiles/*.yaml) that follow from the committed facts of the
releases it claims, so that none is written by hand:

- `pywrap_soname`: true when every release's python/_pywrap_tensorflow_internal.so has the
  SONAME `_pywrap_tensorflow_internal.so` (facts key `sonames`, sonames.py), so a plugin's
  DT_NEEDED of that name matches the library Python loaded; false when any release's has none
  (2.19.1 to 2.21.0): a plugin claiming the range must load on each. A profile leaves the field
  out when it is true (the default, harness/validate/profile.h).

usage: python3 specs/profiles/audit/profile_fields.py PROFILE.yaml RELEASE... [--check | --write]
  prints the derived fields as YAML lines; with --check, exits 1 naming every field whose
  value in PROFILE.yaml (absent: its default) differs from the derived one; with --write,
  writes them into PROFILE.yaml (a field at its default is left out, a new one appended)
"""
import json
import os
import sys

PYWRAP = "python/_pywrap_tensorflow_internal.so"
PYWRAP_SONAME = "_pywrap_tensorflow_internal.so"
FACTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "releases")
# A field's value when the profile leaves it out (harness/validate/profile.cc).
DEFAULTS = {"pywrap_soname": "true"}


def facts_of(release):
    with open(os.path.join(FACTS_DIR, release + ".json"), encoding="utf-8") as source:
        return json.load(source)


def derived(releases):
    """{field: YAML value} from the facts of `releases`."""
    all_facts = [facts_of(release) for release in releases]
    missing = [facts["release"] for facts in all_facts if "sonames" not in facts]
    if missing:
        raise SystemExit("no `sonames` in the facts of %s: re-run release_audit.py"
                         % ", ".join(missing))
    soname = all(facts["sonames"].get(PYWRAP) == PYWRAP_SONAME for facts in all_facts)
    return {"pywrap_soname": "true" if soname else "false"}


def profile_fields(path):
    """The top-level `key: value` lines of a profile (its lists stay unparsed)."""
    fields = {}
    with open(path, encoding="utf-8") as source:
        for line in source:
            if line[:1].isalpha() and ":" in line:
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    return fields


def write(path, fields):
    with open(path, encoding="utf-8") as source:
        lines = source.read().splitlines()
    for key, value in sorted(fields.items()):
        at = [i for i, line in enumerate(lines) if line.startswith(key + ":")]
        wanted = [] if value == DEFAULTS[key] else ["%s: %s" % (key, value)]
        if at:
            lines[at[0]:at[0] + 1] = wanted
        else:
            lines += wanted
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(lines) + "\n")


def main(argv):
    args = [arg for arg in argv[1:] if arg not in ("--check", "--write")]
    if len(args) < 2 or ("--check" in argv and "--write" in argv):
        sys.exit(__doc__)
    profile, releases = args[0], args[1:]
    fields = derived(releases)
    if "--write" in argv:
        write(profile, fields)
        return 0
    if "--check" not in argv:
        for key, value in sorted(fields.items()):
            print("%s: %s" % (key, value))
        return 0
    written = profile_fields(profile)
    wrong = ["%s: %s in the profile (%s), %s from the facts of %s"
             % (key, written.get(key, DEFAULTS[key]), "written" if key in written else "absent",
                value, " ".join(releases))
             for key, value in sorted(fields.items()) if written.get(key, DEFAULTS[key]) != value]
    if wrong:
        print("%s differs from what the facts derive:" % profile)
        for line in wrong:
            print("  " + line)
        return 1
    print("%s: %s, as the facts of %s derive" % (
        profile, ", ".join("%s %s" % item for item in sorted(fields.items())),
        " ".join(releases)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
