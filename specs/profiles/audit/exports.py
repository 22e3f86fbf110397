"""The TF_* / TFE_* functions each shared library of a release defines for others to bind to
(`nm -D --defined-only`): what a plugin linking that library can import."""
import os
import re
import subprocess

_FUNCTION_TYPES = {"T", "W", "i"}
_PREFIX = re.compile(r"^TFE?_")


def library_paths(package):
    """Every shared library of the package folder, relative to it, sorted."""
    found = []
    for directory, _, files in os.walk(package):
        for name in files:
            if re.search(r"\.so(\.\d+)*$", name):
                found.append(os.path.relpath(os.path.join(directory, name), package))
    return sorted(found)


def defined_functions(path):
    output = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True,
                            check=True).stdout
    names = set()
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in _FUNCTION_TYPES and _PREFIX.match(parts[2]):
            names.add(parts[2].split("@")[0])
    return sorted(names)


def exports(package):
    """{library: [TF_*/TFE_* functions]} for every library that defines at least one."""
    result = {}
    for library in library_paths(package):
        names = defined_functions(os.path.join(package, library))
        if names:
            result[library] = names
    return result
