#!/usr/bin/env python3
"""Installs a TensorFlow release that pip cannot install here as a package folder of libraries.

    install_libraries.py 2.10.1 build/default/tensorflow/2.10.1

Releases up to 2.11 have no wheel for Debian's Python 3.11, and tf_driver never imports Python:
it loads the libraries that hold the C API. This fetches the tensorflow-cpu wheel with
`pip download` (wheel_source.py: the first Python tag that has one) into a scratch folder that is
removed afterwards (no pip cache), and extracts into TARGET only what the driver and the release
audit's --check read: the package's shared libraries (the core library, the library with the C
API: libtensorflow_cc.so.2 from 2.12, python/_pywrap_tensorflow_internal.so in every release, the
custom-op libraries `import tensorflow` loads, and the libraries these need), the C API headers, the global-flags file, and the
wheel's METADATA and WHEEL (the release and the Python tag, which plugin_conformance --tensorflow
reads). TARGET/tensorflow is then the package folder; for 2.10.1 it takes 0.55 GB of the wheel's
0.78 GB. Another run with the same release installed is a no-op.
"""
import os
import re
import shutil
import sys
import tempfile
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import wheel_source  # noqa: E402

# Every shared library of the package: the ones the driver loads (the core, the C API's), the
# custom-op libraries the op registry adds (op_registry.py), and those they need from the
# package itself (from 2.13 _pywrap_tensorflow_internal.so needs tsl's libbfloat16.so.so; without
# it tf_driver cannot load 2.13.1 to 2.20.0).
_LIBRARIES = re.compile(r"^tensorflow/.*\.so(\.[0-9a-z]+)*$")
_METADATA = re.compile(r"^tensorflow[_a-z]*-[^/]*\.dist-info/(METADATA|WHEEL)$")


def _wanted(member):
    if _LIBRARIES.match(member) or _METADATA.match(member):
        return True
    # The C API headers and the global-flags file, as the audit extracts them.
    return wheel_source._wanted(member) and not re.search(r"\.so(\.\d+)*$", member)


def installed_version(target):
    for metadata in sorted(os.listdir(target)) if os.path.isdir(target) else []:
        path = os.path.join(target, metadata, "METADATA")
        if metadata.endswith(".dist-info") and os.path.exists(path):
            with open(path, encoding="utf-8") as source:
                for line in source:
                    if line.startswith("Version: "):
                        return line.split(": ", 1)[1].strip()
    return None


def main(argv):
    if len(argv) != 3:
        raise SystemExit("usage: install_libraries.py VERSION TARGET")
    version, target = argv[1], argv[2]
    if installed_version(target) == version:
        return 0
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="wheel-", dir=os.path.dirname(
            os.path.abspath(target))) as scratch:
        wheel = wheel_source.fetch(version, scratch)
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(target, [m for m in archive.namelist() if _wanted(m)])
    if installed_version(target) != version:
        raise SystemExit("install_libraries.py: %s holds no tensorflow %s METADATA after "
                         "extraction" % (target, version))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
