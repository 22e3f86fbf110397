#!/usr/bin/env python3
"""The release audit: every fact the suite uses about one TensorFlow release, measured on that
release's own binary.

    release_audit.py 2.17 2.10.1 ...        # fetch each wheel (cache outside the repository),
                                            # write specs/profiles/releases/<version>.json
    release_audit.py --all                  # the last patch of every minor release 2.5 to 2.21
    release_audit.py 2.10.1 --ops specs/ops/registry   # also the whole op registry (.ops file)
    release_audit.py --installed SITE/tensorflow --check 2.21.0   # an installed package against
                                            # the committed facts (and the committed op registry
                                            # specs/ops/registry/tensorflow-<version>.ops, if
                                            # any); exit 1 on any difference

A MAJOR.MINOR release resolves to its last final patch on PyPI (pip index versions). Facts:
- exports: the TF_*/TFE_* functions each shared library defines (nm -D --defined-only);
- declared: the functions the wheel's own plugin-facing headers declare (declarations.py);
- libraries_loaded: RTLD_GLOBAL when the wheel ships python/pywrap_dlopen_global_flags.py
  (`import tensorflow` then makes every library's symbols global), else RTLD_LOCAL (a plugin
  sees only what it links), see specs/profiles/README.md;
- headers: struct layouts, *_STRUCT_SIZE values and SE/GO/TP version macros compiled from the
  wheel's own plugin headers, and the golden layouts in specs/abi they match;
- next_pluggable_device: TFNPD_Api, TFNPD_PluginParams and PJRT_Api compiled from the wheel's
  plugin_c_api.h and pjrt_c_api.h, their *_STRUCT_SIZE values and version macros (npd_layouts.py);
- sonames: the DT_SONAME of the libraries a plugin may link (sonames.py; None: it has none);
- op_registry: TF_GetAllOpList in a child process (op_registry.py), as a count, a hash and a short
  hash per op.
Standard library only, plus nm, cc and libpython3.11 (for the op registry).
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import declarations  # noqa: E402
import exports  # noqa: E402
import layouts  # noqa: E402
import npd_layouts  # noqa: E402
import op_registry  # noqa: E402
import op_registry_wire  # noqa: E402
import sonames  # noqa: E402
import wheel_source  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FACTS_DIR = os.path.join(REPOSITORY, "specs", "profiles", "releases")
REGISTRY_DIR = os.path.join(REPOSITORY, "specs", "ops", "registry")
ABI_DIR = os.path.join(REPOSITORY, "specs", "abi")
DEFAULT_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "plugin_conformance", "wheels")
# The last patch of every minor release the suite claims (verified on PyPI).
ALL_RELEASES = tuple("2.%d" % minor for minor in range(5, 22))


def registry_differences(version, lines):
    """Where the registry read here differs from a committed specs/ops/registry/tensorflow-
    <version>.ops (comment lines aside); none when no such file is committed."""
    path = os.path.join(REGISTRY_DIR, "tensorflow-%s.ops" % version)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as source:
        committed = [line for line in source.read().splitlines() if not line.startswith("#")]
    measured = [line for line in op_registry_wire.registry_text(version, lines).splitlines()
                if not line.startswith("#")]
    if committed == measured:
        return []
    differing = sorted(set(committed) ^ set(measured))
    return ["%s: %d lines differ from the registry read here, e.g. %s"
            % (path, len(differing), differing[:3])]


def facts_of(package, version, ops_dir=None, registry_problems=None):
    lines = op_registry.registry(package)
    if registry_problems is not None:
        registry_problems += registry_differences(version, lines)
    if ops_dir:
        path = os.path.join(ops_dir, "tensorflow-%s.ops" % version)
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(op_registry_wire.registry_text(version, lines))
    global_flags = os.path.exists(os.path.join(package, wheel_source.GLOBAL_FLAGS_FILE))
    return {
        "release": version,
        "global_flags_file": global_flags,
        "libraries_loaded": "RTLD_GLOBAL" if global_flags else "RTLD_LOCAL",
        "exports": exports.exports(package),
        "declared": declarations.declared(os.path.join(package, "include")),
        "headers": layouts.layouts(package, ABI_DIR),
        "next_pluggable_device": npd_layouts.npd_layouts(package),
        "sonames": sonames.sonames(package),
        "op_registry": op_registry.summary(lines),
    }


def differences(committed, measured, path=""):
    """Readable lines for every place two fact trees differ."""
    if isinstance(committed, dict) and isinstance(measured, dict):
        out = []
        for key in sorted(set(committed) | set(measured)):
            where = path + "/" + key
            if key not in measured:
                out.append("%s: committed, not measured" % where)
            elif key not in committed:
                out.append("%s: measured, not committed" % where)
            else:
                out += differences(committed[key], measured[key], where)
        return out
    if isinstance(committed, list) and isinstance(measured, list) and committed != measured:
        if all(isinstance(item, str) for item in committed + measured):
            missing = sorted(set(committed) - set(measured))
            extra = sorted(set(measured) - set(committed))
            if missing or extra:
                return ["%s: committed only %s; measured only %s" % (path, missing, extra)]
        return ["%s: committed %s, measured %s" % (path, committed, measured)]
    if committed != measured:
        return ["%s: committed %r, measured %r" % (path, committed, measured)]
    return []


def write_facts(facts, facts_dir):
    os.makedirs(facts_dir, exist_ok=True)
    path = os.path.join(facts_dir, "%s.json" % facts["release"])
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        json.dump(facts, out, indent=1, sort_keys=True)
        out.write("\n")
    return path


def check(facts, facts_dir, registry_problems):
    path = os.path.join(facts_dir, "%s.json" % facts["release"])
    with open(path, encoding="utf-8") as source:
        committed = json.load(source)
    found = differences(committed, facts) + registry_problems
    if found:
        print("FAIL: %s differs from what the audit measures on this TensorFlow:" % path)
        for line in found[:60]:
            print("  " + line)
        return False
    registry = os.path.join(REGISTRY_DIR, "tensorflow-%s.ops" % facts["release"])
    print("%s equals the audit of this TensorFlow (%d libraries with TF_* exports, %d ops%s)"
          % (path, len(facts["exports"]), facts["op_registry"]["count"],
             ", the same registry as " + registry if os.path.exists(registry) else ""))
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("releases", nargs="*", help="2.17 (last patch on PyPI) or 2.17.1")
    parser.add_argument("--all", action="store_true", help="every minor release 2.5 to 2.21")
    parser.add_argument("--cache", default=DEFAULT_CACHE, help="wheel cache (outside the repo)")
    parser.add_argument("--installed", help="an installed tensorflow package folder to audit "
                        "instead of a wheel (one release: the version it holds)")
    parser.add_argument("--facts", default=FACTS_DIR, help="where <version>.json lives")
    parser.add_argument("--ops", help="also write tensorflow-<version>.ops into this folder")
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed facts instead of writing them")
    args = parser.parse_args(argv[1:])
    releases = list(args.releases) + (list(ALL_RELEASES) if args.all else [])
    if not releases or (args.installed and len(releases) != 1):
        parser.error("name the release(s); with --installed exactly one, the version installed")
    ok = True
    started = time.monotonic()
    for release in releases:
        began = time.monotonic()
        registry_problems = []
        if args.installed:
            version = release
            facts = facts_of(os.path.abspath(args.installed), version, args.ops, registry_problems)
        else:
            version = wheel_source.resolve(release)
            wheel = wheel_source.fetch(version, args.cache)
            with tempfile.TemporaryDirectory(prefix="extracted-", dir=args.cache) as scratch:
                package = wheel_source.extract(wheel, scratch)
                facts = facts_of(package, version, args.ops, registry_problems)
        if args.check:
            ok = check(facts, args.facts, registry_problems) and ok
        else:
            print("wrote %s" % write_facts(facts, args.facts))
        print("audit of %s: %.1f s" % (version, time.monotonic() - began), file=sys.stderr)
    if len(releases) > 1:
        print("audit of %d releases: %.1f s" % (len(releases), time.monotonic() - started),
              file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
