"""What a plugin can import from a range of releases, from their committed facts: the functions of
the mock core's export list (specs/profiles/exports/newest.txt + newest_not_exported.txt) that
every release of the range lets a plugin bind to (a plugin claiming the range must load on each). Every library's under RTLD_GLOBAL (2.19 on); only
libtensorflow_framework.so.2's, the library a plugin links, under RTLD_LOCAL (2.5 to 2.18). The
rule gives exactly tf2_15.txt on 2.15.1 and newest.txt on 2.19.1 to 2.21.0 (2.19.1 and 2.20.0
also export TF_Log and TF_VLog, which 2.21.0 does not), the lists measured on installed wheels
(docs/tensorflow/releases.md shows it per release).

Under RTLD_LOCAL a plugin also binds to the libraries it links itself: one whose DT_NEEDED names
python/_pywrap_tensorflow_internal.so (DirectML, built for 2.10) reaches that library's functions
too. --pywrap prints those, beyond the framework's (the profile's `pywrap_exports` list).

The facts hold TF_*/TFE_* functions only: the mock core's other exports (tensorflow::internal::
LogMessageFatal's constructors and destructors) are outside them, so --check compares TF_*/TFE_*
names only and an export list carries those others, if it does, with its own measurement.

usage: python3 specs/profiles/audit/reachable_exports.py RELEASE... [--not-exported | --pywrap]
                                                        [--check FILE]
  prints the reachable functions (or the mock core's others, or the ones only linking
  _pywrap_tensorflow_internal.so reaches), one a line, sorted; with --check, exits 1 naming the
  differences when FILE (an export list, '#' comments) does not hold exactly them
"""
import json
import os
import re
import sys

PYWRAP = "python/_pywrap_tensorflow_internal.so"
_FACTS_DOMAIN = re.compile(r"^TFE?_")

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILES_DIR = os.path.join(HERE, "..")


def export_list(name):
    with open(os.path.join(PROFILES_DIR, "exports", name), encoding="utf-8") as source:
        return {line.strip() for line in source if line.strip() and not line.startswith("#")}


def mock_core_exports():
    return export_list("newest.txt") | export_list("newest_not_exported.txt")


def reachable(facts, mock=None, pywrap=False):
    """`pywrap`: for a plugin that links _pywrap_tensorflow_internal.so itself."""
    mock = mock_core_exports() if mock is None else mock
    everything = set().union(*facts["exports"].values())
    framework = set(facts["exports"].get("libtensorflow_framework.so.2", []))
    if pywrap:
        framework |= set(facts["exports"].get(PYWRAP, []))
    return (everything if facts["libraries_loaded"] == "RTLD_GLOBAL" else framework) & mock


def _listed(path):
    with open(path, encoding="utf-8") as source:
        return {line.split("#")[0].strip() for line in source} - {""}


def main(argv):
    args = argv[1:]
    not_exported = "--not-exported" in args
    pywrap = "--pywrap" in args
    check = None
    if "--check" in args and args.index("--check") + 1 < len(args):
        check = args.pop(args.index("--check") + 1)
        args.remove("--check")
    args = [arg for arg in args if arg not in ("--not-exported", "--pywrap")]
    if not args or (not_exported and pywrap):
        sys.exit(__doc__)
    mock = mock_core_exports()
    names = set(mock)
    linked = set(mock)
    for release in args:
        with open(os.path.join(PROFILES_DIR, "releases", release + ".json"), encoding="utf-8") as f:
            facts = json.load(f)
        names &= reachable(facts, mock)
        linked &= reachable(facts, mock, pywrap=True)
    if not_exported:
        names = mock - names
    elif pywrap:
        names = linked - names
    if check is None:
        for name in sorted(names):
            print(name)
        return 0
    listed = {name for name in _listed(check) if _FACTS_DOMAIN.match(name)}
    names = {name for name in names if _FACTS_DOMAIN.match(name)}
    if listed == names:
        print("%s: %d functions, as the facts of %s give" % (check, len(names), " ".join(args)))
        return 0
    print("%s differs from what the facts of %s give:" % (check, " ".join(args)))
    print("  listed, not derived: %s" % (", ".join(sorted(listed - names)) or "-"))
    print("  derived, not listed: %s" % (", ".join(sorted(names - listed)) or "-"))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
