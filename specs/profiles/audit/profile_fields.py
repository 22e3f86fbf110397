"""The fields of a profile (specs/profiles/*.yaml) that follow from the committed facts of the
releases it claims, so that none is written by hand:

- `pywrap_soname`: true when every release's python/_pywrap_tensorflow_internal.so has the
  SONAME `_pywrap_tensorflow_internal.so` (facts key `sonames`, sonames.py), so a plugin's
  DT_NEEDED of that name matches the library Python loaded; false when any release's has none
  (2.19.1 to 2.21.0): a plugin claiming the range must load on each. A profile leaves the field
  out when it is true (the default, harness/validate/profile.h).
- `libraries_global`: true when every release ships python/pywrap_dlopen_global_flags.py (facts
  key `global_flags_file`: 2.19.1 to 2.21.0), so `import tensorflow` makes its libraries' symbols
  global; false (the default, left out) where they stay RTLD_LOCAL and a plugin reaches the C API
  only through a TensorFlow library it links.
- `pjrt_api`: what the release's TensorFlow did with the two NextPluggableDevice fixtures of the
  agreement test (tests/tensorflow/recorded/<release>.jsonl, recorded by load_verdicts.py):
  `graph_profiler_defects/npd_pjrt_0_70` (a 584-byte PJRT_Api, version 0.70) refused with
  "Unexpected PJRT_Api size: expected N, got 584. ... version is X.Y." gives
  `{struct_size: N, framework: "X.Y"}` (2.13.1's text names no version: `{struct_size: N}`);
  it and `npd_pjrt_minor_28` (version 0.28) both refused with "Mismatched PJRT plugin PJRT API
  version (0.70|0.28) and framework PJRT API version M.m)." give
  `{major: M, minor: m, framework: "M.m"}` (that version exactly); loaded while
  `npd_pjrt_minor_28` is
  refused with "... older than the minimum supported version M.m" gives
  `{major: M, min_minor: m}` (no message then names the framework's version); both
  loaded: `none` when `npd_init_fails` (TFNPD_InitPlugin returns INTERNAL) loaded too, so the
  release never calls TFNPD_InitPlugin (no NextPluggableDevice loader), else `{}` (a loader
  that refuses neither table). A release not recorded (2.10.1, 2.15.1, 2.21.0: tensorflow.agreement runs them live
  and holds the written key to them on every run) derives nothing. The recorded releases of a
  range must give one rule: where they differ (2.17.1 took exactly PJRT 0.54, 2.18.1 any 0.29 or
  later) the range is two TensorFlows, and the derivation fails asking for a profile each.

usage: python3 specs/profiles/audit/profile_fields.py PROFILE.yaml RELEASE... [--check | --write]
  prints the derived fields as YAML lines; with --check, exits 1 naming every field whose
  value in PROFILE.yaml (absent: its default) differs from the derived one; with --write,
  writes them into PROFILE.yaml (a field at its default is left out, a new one appended)
"""
import json
import os
import re
import sys

PYWRAP = "python/_pywrap_tensorflow_internal.so"
PYWRAP_SONAME = "_pywrap_tensorflow_internal.so"
FACTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "releases")
RECORDED_DIR = os.path.join(FACTS_DIR, "..", "..", "..", "tests", "tensorflow", "recorded")
PJRT_SIZE_FIXTURE = "graph_profiler_defects/npd_pjrt_0_70"
PJRT_MINOR_FIXTURE = "graph_profiler_defects/npd_pjrt_minor_28"
LOADER_FIXTURE = "graph_profiler_defects/npd_init_fails"
# A field's value when the profile leaves it out (harness/validate/profile.cc).
DEFAULTS = {"pywrap_soname": "true", "libraries_global": "false", "pjrt_api": ""}


def facts_of(release):
    with open(os.path.join(FACTS_DIR, release + ".json"), encoding="utf-8") as source:
        return json.load(source)


def recorded_outcomes(release):
    """{plugin: recorded line} of a release's record; None when it is not recorded."""
    path = os.path.join(RECORDED_DIR, release + ".jsonl")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as source:
        lines = [json.loads(line) for line in source.read().splitlines()[1:] if line]
    return {line["name"]: line for line in lines}


def refusal(line):
    """The message TensorFlow refused (or aborted on) a plugin with; None when it loaded."""
    if line["outcome"] == "loaded" and line.get("devices_outcome", "created") == "created":
        return None
    for key in ("fatal", "load_status", "devices_status"):
        if isinstance(line.get(key), dict) and line[key].get("message"):
            return line[key]["message"]
    return line["outcome"]


def pjrt_rule(facts, outcomes):
    """The `pjrt_api` value (a YAML flow mapping or `none`) the outcomes of one release give."""
    if outcomes is None or any(fixture not in outcomes for fixture in
                               (PJRT_SIZE_FIXTURE, PJRT_MINOR_FIXTURE, LOADER_FIXTURE)):
        return None
    sized, minor = refusal(outcomes[PJRT_SIZE_FIXTURE]), refusal(outcomes[PJRT_MINOR_FIXTURE])
    # A size check refuses both 584-byte tables alike; 2.13.1's text names no API version.
    size = sized and re.match(r"Unexpected PJRT_Api size: expected (\d+), got 584\. Check "
                              r"installed software versions\.(?: The framework PJRT API "
                              r"version is (\d+\.\d+)\.)?$", sized)
    if size and minor == sized:
        return ("{struct_size: %s}" % size.group(1) if size.group(2) is None
                else '{struct_size: %s, framework: "%s"}' % size.groups())
    # An exact version check refuses 0.70 and 0.28 alike, naming each.
    exact = [re.match(r"Mismatched PJRT plugin PJRT API version \(0\.%d\) and framework PJRT "
                      r"API version (\d+)\.(\d+)\)\.$" % plugin_minor, text or "")
             for plugin_minor, text in ((70, sized), (28, minor))]
    if all(exact) and exact[0].groups() == exact[1].groups():
        return '{major: %s, minor: %s, framework: "%s.%s"}' % (exact[0].groups() * 2)
    minimum = minor and re.match(r"Plugin PJRT API version 0\.28 is older than the minimum "
                                 r"supported version (\d+)\.(\d+)$", minor)
    # Under a minimum no message prints the framework's own version, so it is no fact of the rule
    # (2.19.1's 0.67 and 2.20.0's 0.72 behave alike).
    if sized is None and minimum:
        return "{major: %s, min_minor: %s}" % minimum.groups()
    if sized is None and minor is None:
        return "none" if refusal(outcomes[LOADER_FIXTURE]) is None else "{}"
    raise SystemExit("%s: no pjrt_api rule explains the outcomes: %s %r, %s %r"
                     % (facts["release"], PJRT_SIZE_FIXTURE, sized, PJRT_MINOR_FIXTURE, minor))


def derived(releases):
    """{field: YAML value} from the facts of `releases`."""
    all_facts = [facts_of(release) for release in releases]
    missing = [facts["release"] for facts in all_facts if "sonames" not in facts]
    if missing:
        raise SystemExit("no `sonames` in the facts of %s: re-run release_audit.py"
                         % ", ".join(missing))
    soname = all(facts["sonames"].get(PYWRAP) == PYWRAP_SONAME for facts in all_facts)
    fields = {"pywrap_soname": "true" if soname else "false"}
    # Every release of the range makes its libraries global after `import tensorflow`
    # (pywrap_dlopen_global_flags.py, facts key `global_flags_file`), or the range does not.
    global_flags = {facts["global_flags_file"] for facts in all_facts}
    if len(global_flags) > 1:
        raise SystemExit("libraries_global differs within the range; give each its own profile")
    fields["libraries_global"] = "true" if global_flags == {True} else "false"
    rules = {facts["release"]: pjrt_rule(facts, recorded_outcomes(facts["release"]))
             for facts in all_facts}
    known = {release: rule for release, rule in rules.items() if rule is not None}
    if len(set(known.values())) > 1:
        # One profile, one TensorFlow: a plugin's verdict (and TensorFlow's message) would be
        # right for one release of the range and wrong for the other.
        raise SystemExit("pjrt_api differs within the range: %s; give each its own profile"
                         % ", ".join("%s %s" % item for item in sorted(known.items())))
    if known and len(known) == len(rules):
        fields["pjrt_api"] = next(iter(known.values()))
    return fields


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
