# Sourced by the scripts here that run Python against an installed wheel: given tf_dir (the
# `tensorflow` package folder) and variable (its CMake cache variable's name), skips (exit 77)
# without it, or fails when the environment variable CI is set; then sets `site` (the folder
# holding the package) and `python` (the virtual environment's, else python3).
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
