#!/bin/sh
# compare_op_lists.sh TENSORFLOW_DIR VARIABLE DUMP COMPARER RELEASE
# Has DUMP (op_list_dump) write the OpList the mock core's TF_GetAllOpList returns under
# RELEASE, and COMPARER (compare_op_lists.py), run by the wheel installed at TENSORFLOW_DIR,
# check it against TensorFlow's own. Skips (exit 77) without TENSORFLOW_DIR, as wheel_python.sh.
tf_dir=$1 variable=$2 dump=$3 comparer=$4 release=$5
. "$(dirname "$0")/wheel_python.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$dump" "$release" "$out" || exit 1
PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$python" "$comparer" "$out"
