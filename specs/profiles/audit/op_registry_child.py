"""Child process of the audit: writes TF_GetAllOpList's serialized OpList to stdout.

    python3 op_registry_child.py [--preload LIB]... LIBRARY [OP_LIBRARY...]

Each --preload is opened RTLD_GLOBAL first (libpython for a _pywrap_tensorflow_internal.so, whose
Py* symbols it resolves; Python is never initialized, so no Python module of the wheel runs).
Loading LIBRARY runs TensorFlow's static op registrations; each OP_LIBRARY (the wheel's custom-op
libraries, which `import tensorflow` loads too) adds its ops. A child, because a TensorFlow
library cannot be unloaded and two releases cannot share one process.
"""
import argparse
import ctypes
import os
import sys


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t),
                ("data_deallocator", ctypes.c_void_p)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preload", action="append", default=[])
    parser.add_argument("library")
    parser.add_argument("op_libraries", nargs="*")
    args = parser.parse_args()
    for preload in args.preload:
        ctypes.CDLL(preload, mode=ctypes.RTLD_GLOBAL)
    library = ctypes.CDLL(args.library, mode=ctypes.RTLD_GLOBAL)
    for op_library in args.op_libraries:
        ctypes.CDLL(op_library)
    library.TF_GetAllOpList.restype = ctypes.POINTER(_Buffer)
    buffer = library.TF_GetAllOpList().contents
    sys.stdout.buffer.write(ctypes.string_at(buffer.data, buffer.length))
    sys.stdout.flush()
    # Skip TensorFlow's static destructors: some releases crash in them at exit.
    os._exit(0)


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    main()
