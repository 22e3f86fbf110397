#!/bin/sh
# regenerate_registry.sh TENSORFLOW_DIR VARIABLE GENERATOR COMMITTED
# Regenerates TensorFlow's op registry from the wheel installed at TENSORFLOW_DIR (its
# `tensorflow` package folder, the CMake cache variable VARIABLE) with specs/ops/
# generate_registry.py and fails when the result differs from the committed file. Without
# TENSORFLOW_DIR it skips (exit 77), or fails when the environment variable CI is set.
tf_dir=$1 variable=$2 generator=$3 committed=$4
if [ -z "$tf_dir" ]; then
  if [ -n "$CI" ]; then
    echo "FAIL: $variable is not set, and CI requires this test (the tensorflow package folder of the wheel)"
    exit 1
  fi
  echo "SKIP: $variable is not set (the tensorflow package folder of an installed wheel)"
  exit 77
fi
if [ ! -f "$tf_dir/__init__.py" ]; then
  echo "FAIL: $variable=$tf_dir is not a tensorflow package folder"
  exit 1
fi
site=$(dirname "$tf_dir")
# A virtual environment's python (<venv>/lib/pythonX.Y/site-packages/tensorflow), else python3.
python=$(cd "$site/../../.." && pwd)/bin/python
[ -x "$python" ] || python=python3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$python" "$generator" >"$out"; then
  echo "FAIL: $python $generator did not run"
  exit 1
fi
if ! diff -u "$committed" "$out" >"$out.diff"; then
  echo "FAIL: the committed $committed differs from TensorFlow's registry at $tf_dir"
  echo "(regenerate: $python $generator $committed)"
  head -n 60 "$out.diff"
  rm -f "$out.diff"
  exit 1
fi
rm -f "$out.diff"
echo "$committed equals the registry of $tf_dir ($(grep -vc '^#' "$committed") ops)"
