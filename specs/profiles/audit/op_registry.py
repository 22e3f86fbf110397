"""A release's op registry, read in a child process (op_registry_child.py) from the library that
holds TensorFlow's C API, plus the wheel's custom-op libraries that `import tensorflow` loads.

The library is python/_pywrap_tensorflow_internal.so in every release: from 2.5 to 2.11 it is the
only one with the C API, and in later releases it registers the Python-only ops (PyFunc, ...) on
top of libtensorflow_cc.so.2, as `import tensorflow` does. Its Py* symbols are resolved by
preloading libpython3.11 RTLD_GLOBAL; Python is never initialized. Measured on 2.21.0 and 2.15.1,
this gives exactly the registry specs/ops/generate_registry.py reads after `import tensorflow`.
"""
import glob
import hashlib
import os
import subprocess
import sys

import op_registry_wire

LIBRARY = "python/_pywrap_tensorflow_internal.so"
LIBPYTHON_CANDIDATES = ("/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0",
                        "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1")
_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_registry_child.py")


def _libpython():
    for candidate in LIBPYTHON_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    raise SystemExit("no libpython3.11 shared library (apt-get install libpython3.11)")


def _op_libraries(package):
    """The wheel's custom-op libraries `import tensorflow` loads (the audio microfrontend, sobol).
    `_xla_ops.so` is not one: its ops are in the main library already (loading it aborts)."""
    found = glob.glob(os.path.join(package, "**", "_*_op.so"), recursive=True)
    found += glob.glob(os.path.join(package, "**", "libtfkernel_*.so"), recursive=True)
    return sorted(path for path in found if not os.path.basename(path).startswith("_pywrap"))


def serialized_op_list(package):
    environment = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    result = subprocess.run(
        [sys.executable, _CHILD, "--preload", _libpython(), os.path.join(package, LIBRARY)]
        + _op_libraries(package), capture_output=True, env=environment)
    if result.returncode != 0:
        raise SystemExit("TF_GetAllOpList failed in %s (exit %d):\n%s" % (
            package, result.returncode, result.stderr.decode(errors="replace")[-2000:]))
    return result.stdout


def registry(package):
    """{op name: its specs/ops/registry line}."""
    return op_registry_wire.registry_lines(serialized_op_list(package))


def summary(lines):
    """The registry as facts small enough for 17 releases: the op count, one hash of all lines,
    and a short hash per op (which ops changed between releases)."""
    ordered = [lines[name] for name in sorted(lines, key=lambda n: n.encode())]
    return {
        "count": len(lines),
        "sha256": hashlib.sha256(("\n".join(ordered) + "\n").encode()).hexdigest(),
        "ops": {name: hashlib.sha256(lines[name].encode()).hexdigest()[:10]
                for name in sorted(lines, key=lambda n: n.encode())},
    }
