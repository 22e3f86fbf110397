#!/bin/sh
# compare_op_summaries.sh TENSORFLOW_DIR VARIABLE PRINTER COMPARE RELEASE
# Makes the wheel installed at TENSORFLOW_DIR (its `tensorflow` package folder, the CMake cache
# variable VARIABLE) print its one-line text of every op (PRINTER: tests/ops/op_summaries.py) and
# has COMPARE (op_summary_compare) check the suite's text of each op of RELEASE against it.
# Without TENSORFLOW_DIR it skips (exit 77), or fails when the environment variable CI is set.
tf_dir=$1 variable=$2 printer=$3 compare=$4 release=$5
. "$(dirname "$0")/wheel_python.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$python" "$printer" >"$out"; then
  echo "FAIL: $python $printer did not run"
  exit 1
fi
"$compare" --release "$release" "$out"
