#!/bin/sh
# compare_op_summaries.sh TENSORFLOW_DIR VARIABLE PRINTER COMPARE RELEASE
# Makes the wheel installed at TENSORFLOW_DIR (its `tensorflow` package folder, the CMake cache
# variable VARIABLE) print its one-line text of every op (PRINTER: tests/ops/op_summaries.py) and
# has COMPARE (op_summary_compare) check the suite's text of each op of RELEASE against it.
# Without TENSORFLOW_DIR it skips (exit 77), or fails when the environment variable CI is set.
tf_dir=$1 variable=$2 printer=$3 compare=$4 release=$5
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
if ! PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$python" "$printer" >"$out"; then
  echo "FAIL: $python $printer did not run"
  exit 1
fi
"$compare" --release "$release" "$out"
