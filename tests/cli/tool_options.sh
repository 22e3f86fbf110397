#!/bin/sh
# Every tool handles --help (exit 0, usage text) and rejects unknown options (exit 2), and
# neither ever becomes a file name (a stray file named '--help' once sat in the repository).
# Usage: tool_options.sh TOOL [ARGS THAT MAKE IT OTHERWISE RUNNABLE...]
set -u
tool="$1"
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
fail() { echo "FAIL: $(basename "$tool") $*"; failures=$((failures + 1)); }

"$tool" --help "$@" >out.txt 2>&1
code=$?
[ "$code" -eq 0 ] || fail "--help exited $code"
grep -qi "usage" out.txt || fail "--help printed no usage: $(head -3 out.txt)"

"$tool" --no-such-option "$@" >out.txt 2>&1
code=$?
[ "$code" -eq 2 ] || fail "--no-such-option exited $code, expected 2"
grep -q -- "--no-such-option" out.txt || fail "the error does not name the option: $(head -3 out.txt)"

leftovers=$(ls -A | grep -v '^out.txt$')
[ -z "$leftovers" ] || fail "created files: $leftovers"
[ "$failures" -eq 0 ] && echo "$(basename "$tool"): --help and unknown options handled"
exit "$failures"
