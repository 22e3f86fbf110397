#!/bin/sh
# Fails, naming each file, when a C/C++ file is not as the root .clang-format lays it out.
# Usage: check_format.sh CLANG_FORMAT SOURCE_DIR [FILE...]
# Without FILEs: every tracked C/C++ file (git ls-files; the source folders when there is no
# .git, as in a release tarball), except tests/style/fixtures (deliberately unformatted).
# Exit 77 (CTest: skipped) without clang-format 14: other major versions lay out some
# constructs differently, so they would flag code that is formatted.
set -eu
clang_format="$1"
source_dir="$2"
shift 2
if [ -z "$clang_format" ] || ! "$clang_format" --version >/dev/null 2>&1; then
  echo "clang-format not found (.ci/bootstrap installs it): skipped"
  exit 77
fi
if ! "$clang_format" --version | grep -q "version 14\."; then
  echo "$("$clang_format" --version) is not clang-format 14, which the tree is formatted with: skipped"
  exit 77
fi
cd "$source_dir"
list="$(mktemp)"
trap 'rm -f "$list"' EXIT
if [ $# -gt 0 ]; then
  printf '%s\n' "$@" > "$list"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -- '*.c' '*.cc' '*.h' '*.cpp' '*.hpp' ':!:tests/style/fixtures/*' > "$list"
else
  find benchmarks conformance examples harness mocks reference_plugin specs tests \
    -path tests/style/fixtures -prune -o -type f \
    \( -name '*.c' -o -name '*.cc' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) \
    -print 2>/dev/null | sort > "$list"
fi
count="$(wc -l < "$list")"
if [ "$count" -eq 0 ]; then
  echo "no C/C++ files found under $source_dir" >&2
  exit 1
fi
# --dry-run --Werror: one error per misplaced token, with file:line:col.
status=0
output="$(tr '\n' '\0' < "$list" | xargs -0 "$clang_format" --dry-run --Werror 2>&1)" || status=$?
if [ "$status" -ne 0 ] || [ -n "$output" ]; then
  printf '%s\n' "$output" | head -n 60
  echo "not formatted: run clang-format -i on the files above (the root .clang-format)" >&2
  exit 1
fi
echo "$count files formatted"
