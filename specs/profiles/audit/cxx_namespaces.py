"""The top-level C++ namespaces TensorFlow's own libraries export symbols in, for
specs/profiles/cxx_namespaces.txt: a plugin importing a mangled symbol in a namespace outside
that list (glslang::InitThread(), left undefined by a build that forgot a library) cannot bind it
to any TensorFlow release, so TensorFlow's dlopen of the plugin fails
(harness/validate/foreign_cxx_imports.h).

usage: cxx_namespaces.py TENSORFLOW_DIR... [--check FILE]
TENSORFLOW_DIR: an installed tensorflow package folder (site-packages/tensorflow). Prints the
sorted namespaces of the exported (defined, dynamic) mangled symbols of its libraries; with
--check, exits 1 naming every one FILE lacks.
Needs nm and c++filt (binutils).
"""

import argparse
import os
import subprocess
import sys

LIBRARIES = ["libtensorflow_framework.so.2", "libtensorflow_cc.so.2",
             "python/_pywrap_tensorflow_internal.so"]


def top_namespace(demangled):
    """The namespace a demangled name starts in: the rule of harness/loader/cxx_imports.cc's
    TopNamespace ("" for a name outside any namespace)."""
    at = demangled.find("::")
    if at < 0:
        return ""
    paren = demangled.find("(")
    if 0 <= paren < at:
        return ""
    token = demangled[demangled.rfind(" ", 0, at) + 1:at]
    if not token or "<" in token or "(" in token:
        return ""
    return token


def exported_namespaces(tensorflow_dir):
    namespaces = set()
    for name in LIBRARIES:
        path = os.path.join(tensorflow_dir, name)
        if not os.path.exists(path):
            continue
        symbols = subprocess.run(["nm", "-D", "--defined-only", path], check=True,
                                 capture_output=True, text=True).stdout
        mangled = [line.split()[-1] for line in symbols.splitlines()
                   if line.split() and line.split()[-1].startswith("_Z")]
        demangled = subprocess.run(["c++filt"], input="\n".join(mangled), check=True,
                                   capture_output=True, text=True).stdout
        namespaces.update(top_namespace(line) for line in demangled.splitlines())
    namespaces.discard("")
    return namespaces


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tensorflow_dirs", nargs="+")
    parser.add_argument("--check")
    args = parser.parse_args()
    found = set()
    for directory in args.tensorflow_dirs:
        found |= exported_namespaces(directory)
    if not args.check:
        print("\n".join(sorted(found)))
        return 0
    with open(args.check) as f:
        listed = {line.split("#")[0].strip() for line in f} - {""}
    missing = sorted(found - listed)
    if missing:
        print("%s lacks %d namespace(s) TensorFlow at %s exports: %s" % (
            args.check, len(missing), " ".join(args.tensorflow_dirs), " ".join(missing)))
        return 1
    print("every namespace exported at %s (%d) is in %s" % (" ".join(args.tensorflow_dirs),
                                                         len(found), args.check))
    return 0


if __name__ == "__main__":
    sys.exit(main())
