"""Where a release's files come from: a tensorflow-cpu wheel fetched with pip, or an installed
package folder.

Only the shared libraries, the C API headers of tensorflow/include and the one Python file whose
presence the suite reads (python/pywrap_dlopen_global_flags.py) are extracted, into a folder
the caller removes (the libraries are about 0.9 GB a release; the wheels, 0.1 to 0.3 GB, stay in
the cache folder, outside the repository). The C-level libraries are the same in every Python
tag of a release, so the first Python version pip finds a wheel for is taken.
"""
import glob
import os
import re
import subprocess
import sys
import zipfile

PACKAGE = "tensorflow-cpu"
# Newest first: releases up to 2.11 have no wheel for 3.11, the newest none for 3.8.
PYTHON_VERSIONS = ("3.11", "3.10", "3.9", "3.8")
PLATFORMS = ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_27_x86_64")
GLOBAL_FLAGS_FILE = "python/pywrap_dlopen_global_flags.py"


def _pip_options(python_version):
    options = ["--only-binary=:all:", "--python-version", python_version]
    for platform in PLATFORMS:
        options += ["--platform", platform]
    return options


def _version_key(text):
    """(2, 15, 1, post) of a final release ('2.15.0.post1' sorts after 2.15.0); None for rc/dev."""
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?", text)
    if not match:
        return None
    return tuple(int(part or 0) for part in match.groups())


def resolve(release):
    """'2.17' -> the last final patch release of 2.17 on PyPI; '2.17.1' stays as it is."""
    if re.fullmatch(r"\d+\.\d+\.\d+(\.post\d+)?", release):
        return release
    if not re.fullmatch(r"\d+\.\d+", release):
        raise SystemExit("release %r: expected MAJOR.MINOR or MAJOR.MINOR.PATCH" % release)
    versions = set()
    for python_version in (PYTHON_VERSIONS[0], PYTHON_VERSIONS[-1]):
        result = subprocess.run(
            [sys.executable, "-m", "pip", "index", "versions", PACKAGE]
            + _pip_options(python_version),
            capture_output=True, text=True)
        for line in result.stdout.splitlines():
            if line.startswith("Available versions:"):
                versions.update(v.strip() for v in line.split(":", 1)[1].split(","))
    matching = [v for v in versions if _version_key(v) and v.startswith(release + ".")]
    if not matching:
        raise SystemExit("no %s %s.* release found on PyPI" % (PACKAGE, release))
    return max(matching, key=_version_key)


def _cached_wheel(cache, version):
    found = sorted(glob.glob(os.path.join(cache, "tensorflow_cpu-%s-*.whl" % version)))
    return found[0] if found else None


def fetch(version, cache):
    """The wheel file of `version` in `cache`, downloaded with pip when not there yet."""
    os.makedirs(cache, exist_ok=True)
    wheel = _cached_wheel(cache, version)
    for python_version in PYTHON_VERSIONS:
        if wheel:
            return wheel
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                        "-d", cache] + _pip_options(python_version)
                       + ["%s==%s" % (PACKAGE, version)],
                       capture_output=True)
        wheel = _cached_wheel(cache, version)
    if not wheel:
        raise SystemExit("pip found no %s==%s wheel for Python %s" % (PACKAGE, version,
                                                                   ", ".join(PYTHON_VERSIONS)))
    return wheel


# The headers of tensorflow/include the audit compiles or reads: every C API folder (a path
# component `c`: tensorflow/c, tsl/c, xla/tsl/c, ...), the tstring headers c_api.h includes and
# the NextPluggableDevice folder kernels.h includes. The rest (Eigen, absl, protobuf, the C++
# API: about 0.8 GB a release) is left in the wheel. A header missing here fails the audit's
# compile loudly; it cannot change a fact. The two TPU declaration headers are what
# next_pluggable_device/c/plugin_c_api.h includes beyond C API folders (npd_layouts.py).
_HEADERS = re.compile(r"^include/(.*/)?(c/.*|platform/ctstring.*|platform/platform\.h"
                      r"|next_pluggable_device/.*|stream_executor/tpu/(c_api_decl|libtftpu)\.h)$")


def _wanted(member):
    if not member.startswith("tensorflow/"):
        return False
    inner = member[len("tensorflow/"):]
    return (_HEADERS.match(inner) is not None or inner == GLOBAL_FLAGS_FILE
            or re.search(r"\.so(\.\d+)*$", inner) is not None)


def extract(wheel, target):
    """Extracts what the audit reads of a wheel into `target`; returns its `tensorflow` folder."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target, [m for m in archive.namelist() if _wanted(m)])
    return os.path.join(target, "tensorflow")
