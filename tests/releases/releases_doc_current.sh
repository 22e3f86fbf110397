#!/bin/sh
# releases_doc_current.sh PYTHON GENERATOR DOC: the committed docs/tensorflow/releases.md is what
# releases_doc.py generates from the committed facts (specs/profiles/releases/*.json).
python=$1 generator=$2 doc=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! "$python" "$generator" >"$out"; then
  echo "FAIL: $python $generator did not run"
  exit 1
fi
if ! cmp -s "$doc" "$out"; then
  diff -u "$doc" "$out" | head -n 40
  echo "FAIL: $doc is not what the committed facts generate (regenerate: $python $generator > $doc)"
  exit 1
fi
echo "$doc equals what $generator generates from the committed facts"
