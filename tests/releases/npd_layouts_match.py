"""npd_layouts_match.py INCLUDE [--drop-member NAME]: the NextPluggableDevice structs of our
clean-room headers (INCLUDE, specs/include) against the release audit's facts
(specs/profiles/releases/*.json, key `next_pluggable_device`, npd_layouts.py):

1. TFNPD_Api and TFNPD_PluginParams as our plugin_c_api.h compiles (sizeof, every member's
   name, offset and size) and its TFNPD_Api_STRUCT_SIZE / TFNPD_PLUGIN_PARAMS_STRUCT_SIZE equal
   the newest release's recorded ones (a member missing there made TensorFlow 2.21.0 call the
   wrong function pointer: 168 bytes against its 176);
2. the suite uses these one size for every profile (harness/validate/npd_module.cc pre-fills
   TFNPD_PluginParams.struct_size with ours, and our fixtures fill a TFNPD_Api of ours): so every
   release of every profile's range that ships the header must record the same layout.

--drop-member NAME compiles a copy of INCLUDE whose plugin_c_api.h lacks the line declaring NAME
(the test of this test: it must fail). Exit 1 naming every difference.
"""
import glob
import json
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "specs", "profiles", "audit"))

import npd_layouts  # noqa: E402

HEADER = "tensorflow/core/common_runtime/next_pluggable_device/c/plugin_c_api.h"
FACTS = os.path.join(ROOT, "specs", "profiles", "releases")
PROFILES = os.path.join(ROOT, "specs", "profiles")


def _key(version):
    return tuple(int(part) for part in version.split("."))


def recorded():
    """{release: its facts' plugin_c_api layout (None: no such header)}, every release."""
    found = {}
    for path in glob.glob(os.path.join(FACTS, "*.json")):
        with open(path, encoding="utf-8") as source:
            facts = json.load(source)
        if "next_pluggable_device" not in facts:
            raise SystemExit("%s has no `next_pluggable_device`: re-run release_audit.py" % path)
        found[facts["release"]] = facts["next_pluggable_device"]["plugin_c_api"]
    return found


def profile_ranges():
    """{profile file: (first MAJOR.MINOR, last MAJOR.MINOR)} from each profile's `releases`."""
    ranges = {}
    for path in sorted(glob.glob(os.path.join(PROFILES, "*.yaml"))):
        with open(path, encoding="utf-8") as source:
            match = re.search(r'^releases:\s*"?([\d.]+)(?:-([\d.]+))?"?\s*$', source.read(), re.M)
        ranges[os.path.basename(path)] = (_key(match.group(1)), _key(match.group(2)
                                                                      or match.group(1)))
    return ranges


def ours(include, drop_member):
    if not drop_member:
        return npd_layouts.measure(include, HEADER, npd_layouts.PLUGIN_STRUCTS,
                                   npd_layouts.PLUGIN_SIZES, npd_layouts.PLUGIN_VERSIONS, "c++")
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "include")
        shutil.copytree(include, copy)
        path = os.path.join(copy, HEADER)
        with open(path, encoding="utf-8") as source:
            lines = source.read().splitlines(keepends=True)
        kept = [line for line in lines if not re.search(r"\(%s\)" % drop_member, line)]
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(kept)
        return ours(copy, None)


def compare(what, ours_layout, theirs):
    problems = []
    for struct in npd_layouts.PLUGIN_STRUCTS:
        mine, recorded_struct = ours_layout["structs"][struct], theirs["structs"][struct]
        if mine["sizeof"] != recorded_struct["sizeof"]:
            problems.append("%s: sizeof(%s) is %d here, %d in %s" % (
                HEADER, struct, mine["sizeof"], recorded_struct["sizeof"], what))
        if mine["fields"] != recorded_struct["fields"]:
            only_here = [f for f in mine["fields"] if f not in recorded_struct["fields"]]
            only_there = [f for f in recorded_struct["fields"] if f not in mine["fields"]]
            problems.append("%s: %s members differ from %s: here only %s, there only %s" % (
                HEADER, struct, what, only_here, only_there))
    for constant in npd_layouts.PLUGIN_SIZES:
        mine = ours_layout["struct_size_macros"].get(constant)
        there = theirs["struct_size_macros"].get(constant)
        if mine != there:
            problems.append("%s: %s is %s here, %s in %s" % (HEADER, constant, mine, there, what))
    return problems


def main(argv):
    include = argv[1]
    drop = argv[3] if len(argv) > 3 and argv[2] == "--drop-member" else None
    layouts = recorded()
    shipped = sorted((release for release, layout in layouts.items() if layout), key=_key)
    if not shipped:
        raise SystemExit("no release's facts record a plugin_c_api.h")
    newest = shipped[-1]
    mine = ours(include, drop)
    problems = compare("the %s wheel's header (the newest release)" % newest, mine,
                       layouts[newest])
    # Every profile's releases: the one layout the suite uses must be theirs too.
    for profile, (first, last) in profile_ranges().items():
        for release in shipped:
            if first <= _key(release)[:2] <= last:
                problems += ["%s (%s): %s" % (profile, release, line) for line in
                             compare("the %s wheel's header" % release, mine, layouts[release])]
    if problems:
        print("FAIL: the NextPluggableDevice layout of %s differs from the recorded one:" % include)
        for line in problems:
            print("  " + line)
        return 1
    tfnpd = mine["structs"]["TFNPD_Api"]
    print("PASS: TFNPD_Api (%d bytes, %d members) and TFNPD_PluginParams (%d bytes, struct_size "
          "%d) of %s equal the recorded layout of %s, the releases that ship the header"
          % (tfnpd["sizeof"], len(tfnpd["fields"]), mine["structs"]["TFNPD_PluginParams"]["sizeof"],
             mine["struct_size_macros"]["TFNPD_PLUGIN_PARAMS_STRUCT_SIZE"], include,
             ", ".join(shipped)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
