#!/bin/sh
# Report files never destroy what they point at (issue 7 §2), and a closed stdout does not
# stop them being written (§5). Usage: report_files.sh PLUGIN_CONFORMANCE REFERENCE_PLUGIN
# Runs the load.library checks only: fast, and enough to produce complete reports.
set -u
tool="$1"
plugin="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$tool" "$plugin" --tier load --filter 'load.library.*' "$@"; }

# /dev/null stays a character device (as root, a rename over it would replace it).
run --json /dev/null >/dev/null 2>&1 || fail "--json /dev/null exited $?"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# /dev/full: ENOSPC is reported with exit code 4.
run --json /dev/full >/dev/null 2>"$work/full.err"
code=$?
[ "$code" -eq 4 ] || fail "--json /dev/full exited $code, expected 4"
grep -q "No space left on device" "$work/full.err" || fail "/dev/full error not reported: $(cat "$work/full.err")"
[ -c /dev/full ] || fail "/dev/full is no longer a character device"

# A symlink is written through; the link stays a link.
: > "$work/target.json"
ln -s target.json "$work/link.json"
run --json "$work/link.json" >/dev/null 2>&1 || fail "--json through a symlink exited $?"
[ -L "$work/link.json" ] || fail "the symlinked report path is no longer a symlink"
grep -q '"format_version"' "$work/target.json" || fail "the symlink's target did not get the report"

# A FIFO is written directly (a reader sees the report; the FIFO stays a FIFO).
mkfifo "$work/fifo"
cat "$work/fifo" > "$work/from_fifo.xml" &
reader=$!
run --junit "$work/fifo" >/dev/null 2>&1 || fail "--junit FIFO exited $?"
wait "$reader"
[ -p "$work/fifo" ] || fail "the FIFO was replaced"
grep -q "<testsuites" "$work/from_fifo.xml" || fail "nothing arrived through the FIFO"

# The HTML report follows the same rules: a device stays a device, a symlink stays a link.
run --html /dev/null >/dev/null 2>&1 || fail "--html /dev/null exited $?"
[ -c /dev/null ] || fail "/dev/null is no longer a character device after --html"
: > "$work/target.html"
ln -s target.html "$work/link.html"
run --html "$work/link.html" >/dev/null 2>&1 || fail "--html through a symlink exited $?"
[ -L "$work/link.html" ] || fail "the symlinked HTML path is no longer a symlink"
grep -q '<!DOCTYPE html>' "$work/target.html" || fail "the symlink's target did not get the HTML"

# '-' is standard output, which then carries only the report.
run --json - 2>/dev/null > "$work/stdout.json" || fail "--json - exited $?"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/stdout.json" 2>/dev/null ||
  fail "--json - did not put (only) JSON on stdout: $(head -3 "$work/stdout.json")"

# --list --json writes the catalogue.
"$tool" --list --json "$work/catalogue.json" >/dev/null 2>&1 || fail "--list --json exited $?"
grep -q '"rule"' "$work/catalogue.json" || fail "--list --json wrote no catalogue"

# A closed stdout (| head) does not kill the run before the report files are written.
"$tool" "$plugin" --tier load --json "$work/piped.json" -v 2>/dev/null | head -n 1 >/dev/null
[ -s "$work/piped.json" ] || fail "no JSON report when stdout was closed early"

[ "$failures" -eq 0 ] && echo "all report file checks passed"
exit "$failures"
