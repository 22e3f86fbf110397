#!/bin/sh
# with_tensorflow.sh TENSORFLOW_DIR SCRIPT.py ARGS...: runs the script with the Python of the
# virtual environment that holds TENSORFLOW_DIR (<venv>/lib/pythonX.Y/site-packages/tensorflow). Without a TensorFlow: skipped (exit 77, CTest's SKIP_RETURN_CODE) with the reason,
# or failed when CI is set (CI must run every tensorflow test).
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
if [ ! -x "$TF_PYTHON" ]; then
  echo "FAIL: no Python beside $tensorflow_dir (expected $TF_PYTHON)" >&2
  exit 1
fi
# Quiet TensorFlow's C++ logging; no __pycache__ in the source tree.
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2} PYTHONDONTWRITEBYTECODE=1
exec "$TF_PYTHON" "$@"
