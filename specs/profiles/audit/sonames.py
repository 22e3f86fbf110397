"""The DT_SONAME of each library of a release a plugin may name in its DT_NEEDED (`readelf -d`).

Why it is a fact: the dynamic loader matches a DT_NEEDED name against the SONAMEs of the
libraries already loaded. A library Python opened by its full path and that has no SONAME
matches nothing, so a plugin's DT_NEEDED of its name is searched on disk (through the plugin's
own RPATH/RUNPATH only: Python's TensorFlow sets no LD_LIBRARY_PATH). The profile field
`pywrap_soname` is derived from the `python/_pywrap_tensorflow_internal.so` entry
(profile_fields.py).

Result: {library path in the package: its SONAME, or None when it has none}; a library the
release does not ship is left out (libtensorflow_cc.so.2 before 2.12, the common pywrap library
before 2.19).
"""
import os
import re
import subprocess

# The libraries a plugin can link: the framework, the C++/C API library, the Python extension
# that carries the C API up to 2.11, and from 2.19 the library that extension became a stub of.
LIBRARIES = (
    "libtensorflow_framework.so.2",
    "libtensorflow_cc.so.2",
    "python/_pywrap_tensorflow_internal.so",
    "python/lib_pywrap_tensorflow_common.so",
)

_SONAME = re.compile(r"\(SONAME\)\s+Library soname: \[(.*)\]")


def soname(path):
    output = subprocess.run(["readelf", "-d", "-W", path], capture_output=True, text=True,
                            check=True).stdout
    match = _SONAME.search(output)
    return match.group(1) if match else None


def sonames(package):
    return {library: soname(os.path.join(package, library))
            for library in LIBRARIES if os.path.exists(os.path.join(package, library))}
