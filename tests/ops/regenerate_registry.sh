#!/bin/sh
# regenerate_registry.sh TENSORFLOW_DIR VARIABLE GENERATOR COMMITTED
# Regenerates TensorFlow's op registry from the wheel installed at TENSORFLOW_DIR (its
# `tensorflow` package folder, the CMake cache variable VARIABLE) with specs/ops/
# generate_registry.py and fails when the result differs from the committed file. Without
# TENSORFLOW_DIR it skips (exit 77), or fails when the environment variable CI is set.
tf_dir=$1 variable=$2 generator=$3 committed=$4
. "$(dirname "$0")/wheel_python.sh"
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
