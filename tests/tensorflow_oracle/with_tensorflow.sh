#!/bin/sh
# with_tensorflow.sh TENSORFLOW_DIR SCRIPT.py ARGS...: runs the script with the Python of the
# virtual environment that holds TENSORFLOW_DIR (<venv>/lib/pythonX.Y/site-packages/tensorflow),
# or python3 for a release installed as libraries only (below). Without a TensorFlow: skipped
# (exit 77, CTest's SKIP_RETURN_CODE) with the reason, or failed when CI is set (CI must run
# every tensorflow test).
tensorflow_dir=$1
shift
reason=""
if [ -z "$tensorflow_dir" ]; then
  reason="no TensorFlow configured (set CONFORMANCE_TENSORFLOW_DIR / CONFORMANCE_TENSORFLOW_2_15_DIR)"
elif [ ! -d "$tensorflow_dir" ]; then
  reason="no TensorFlow at $tensorflow_dir"
fi
if [ -n "$reason" ]; then
  if [ -n "$CI" ]; then
    echo "FAIL: $reason, and CI is set: the tensorflow tests must run" >&2
    exit 1
  fi
  echo "SKIPPED: $reason"
  exit 77
fi
TF_PYTHON=$(cd "$tensorflow_dir/../../../.." && pwd)/bin/python
# A release installed as its libraries only (specs/profiles/audit/install_libraries.py: 2.10.1,
# which has no wheel for this Python) has no environment: its scripts never import tensorflow,
# and run with the python3 on PATH.
if [ ! -x "$TF_PYTHON" ] && ls "$tensorflow_dir"/../tensorflow*.dist-info/METADATA >/dev/null 2>&1; then
  TF_PYTHON=$(command -v python3)
fi
if [ ! -x "$TF_PYTHON" ]; then
  echo "FAIL: no Python beside $tensorflow_dir (expected $TF_PYTHON)" >&2
  exit 1
fi
# Quiet TensorFlow's C++ logging; no __pycache__ in the source tree.
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2} PYTHONDONTWRITEBYTECODE=1
exec "$TF_PYTHON" "$@"
