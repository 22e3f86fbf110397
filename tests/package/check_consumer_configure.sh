#!/bin/sh
# package.consumer_configures_and_runs: the consumer project configures against the installed
# package only (CMAKE_PREFIX_PATH), registers its conformance tests (with the plugin-target
# build fixture), and the path-given one runs and writes JUnit.
# Usage: check_consumer_configure.sh CONSUMER_SOURCE PREFIX WORK_DIR
set -eu
source_dir="$1"; prefix="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
fail() { echo "check_consumer_configure: $*" >&2; exit 1; }
cp -r "$source_dir" "$work/src"
cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.txt" 2>&1 ||
  fail "configure failed: $(cat "$work/configure.txt")"
listed="$(cd "$work/build" && ctest -N)"
for test in host_plugin.conformance host_plugin.conformance.build_plugin reference_plugin.load; do
  echo "$listed" | grep -q " $test\$" || fail "test $test not registered:
$listed"
done
(cd "$work/build" && ctest -R '^reference_plugin\.load$' --output-on-failure) || fail "reference_plugin.load failed"
grep -q "<testsuite" "$work/build/reference_plugin.load.junit.xml" || fail "no JUnit report"
# The consumer is C++17: its Relu kernel test on the installed mocks (mocks/README.md) builds
# and passes.
cmake --build "$work/build" --target relu_kernel_test >"$work/build.txt" 2>&1 ||
  fail "relu_kernel_test (C++17, plugin_conformance::mocks) does not build: $(cat "$work/build.txt")"
(cd "$work/build" && ctest -R '^ReluKernelTest\.' --output-on-failure --no-tests=error) ||
  fail "relu_kernel_test failed"
echo "check_consumer_configure: configured against $prefix; reference_plugin.load and the C++17 Relu kernel test passed"
