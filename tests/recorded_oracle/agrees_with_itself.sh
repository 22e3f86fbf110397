#!/bin/sh
# agrees_with_itself.sh TENSORFLOW_DIR RECORDER DUMP_TOOL AGREEMENT: records every generated case
# again on the installed TensorFlow's CPU and judges that recording against the committed record
# as the kernel tier judges a plugin (record_agreement). TensorFlow's CPU is a plugin TensorFlow
# runs correctly, so it must pass every cell: a failure is a case whose recorded value is
# undefined or unreproducible (an unwritten output, a nondeterministic kernel), which would fail
# a correct device too. Skipped without a TensorFlow, as with_tensorflow.sh says.
set -u
tensorflow_dir=$1 recorder=$2 dump_tool=$3 agreement=$4
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TF_CPP_MIN_LOG_LEVEL=3 "$here/../tensorflow_oracle/with_tensorflow.sh" "$tensorflow_dir" \
    "$recorder" --dump-tool "$dump_tool" --out "$work" >"$work/recording.log" 2>&1
code=$?
if [ "$code" -ne 0 ]; then
  cat "$work/recording.log"
  exit "$code"
fi
tail -n 1 "$work/recording.log"
"$dump_tool" >"$work/cases.json" || exit 1
"$agreement" "$work/cases.json" "$work" >"$work/agreement.txt" || exit 1
cat "$work/agreement.txt"
tail -n 1 "$work/agreement.txt" | grep -q '"failing_cells":0,'
