#!/bin/sh
# package.mocks_component_says_why: find_package(plugin_conformance COMPONENTS mocks) against a
# package without libmocks.a fails, and says why (not a later "target was not found").
# Usage: check_mocks_component.sh PREFIX WORK_DIR
set -eu
prefix="$(cd "$1" && pwd)"; work="$2"
rm -rf "$work"; mkdir -p "$work/src"
cp -r "$prefix" "$work/prefix"
rm -f "$work"/prefix/lib*/plugin_conformance/libmocks.a
cat > "$work/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(mocks_component LANGUAGES CXX)
find_package(plugin_conformance CONFIG REQUIRED COMPONENTS mocks)
CMAKE
if cmake -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/out.txt" 2>&1; then
  echo "check_mocks_component: configure succeeded without libmocks.a" >&2; exit 1
fi
# CMake wraps the reason over lines: compare with the whitespace folded.
tr -s ' \n' '  ' <"$work/out.txt" |
  grep -q "Reason given by package: component mocks is not available: this plugin_conformance package was built without the mocks" || {
  echo "check_mocks_component: the failure does not say why:" >&2; cat "$work/out.txt" >&2; exit 1; }
# With the mocks present the same project configures.
cmake -S "$work/src" -B "$work/build-ok" -DCMAKE_PREFIX_PATH="$prefix" >"$work/ok.txt" 2>&1 || {
  echo "check_mocks_component: configure with the mocks failed:" >&2; cat "$work/ok.txt" >&2; exit 1; }
echo "check_mocks_component: COMPONENTS mocks fails with the reason when libmocks.a is missing"
