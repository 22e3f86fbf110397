#!/bin/sh
# Same plugin, same verdict (issue 16): runs the kernel, runtime and scenario defect families
# (kernel_defects_test, runtime_defects_test, scenario_defects_test, model_defects_test: each
# asserts its variant's exact verdict, legal variants included; the models tier holds streams
# with a copy, runtime/copy_hold.h), the lifetime plugins (deallocate_timing_test: freeing
# at once, in stream order, after waiting, behind the BFC allocator), the getenv platform name
# and the libraries opened in SE_InitPlugin (load_defects_test) RUNS
# times while a busy loop keeps one core loaded, and prints for every test how many runs passed.
#
#   benchmarks/repeat_verdicts.sh [BUILD_DIR] [RUNS]      (defaults: build/default 20)
set -eu
build=${1:-build/default}
runs=${2:-20}
log=$(mktemp)

# The other core's load: a shell loop of our own, stopped by its pid on the way out.
sh -c 'while :; do :; done' &
busy=$!
trap 'kill "$busy" 2>/dev/null; rm -f "$log"' EXIT INT TERM

export LOAD_DEFECTS_PLATFORM_NAME=MINIMAL
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  for test in "kernel_defects_test" "runtime_defects_test" "scenario_defects_test" \
              "model_defects_test" "deallocate_timing_test" \
              "load_defects_test --gtest_filter=*platform_name_from_env*:*minimal*:*opens_*"; do
    # shellcheck disable=SC2086 # the filter is a separate word on purpose
    "$build"/bin/$test 2>&1 | grep -E '^\[ +(OK|FAILED) +\] [^ ]+ \(' >>"$log" || true
  done
done
echo "runs: $runs, one core kept busy by a shell loop"
sed -E 's/^\[ +(OK|FAILED) +\] ([^ ]+).*/\2 \1/' "$log" |
  awk -v runs="$runs" '{ seen[$1]++; if ($2 == "OK") ok[$1]++ }
       END { for (t in seen) { printf "%3d/%d  %s\n", ok[t] + 0, runs, t; total++; if (ok[t] == runs) full++ }
             printf "%d of %d tests passed on every run\n", full, total }' | sort -k2
