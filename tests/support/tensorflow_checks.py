"""What the Python tests against the installed TensorFlow share: how a missing wheel ends a test
(skipped, or failed when CI is set: CI must run every tensorflow test), and one line per check."""

import os
import sys


def skip_or_fail(reason):
    if os.environ.get("CI"):
        print(f"FAIL (CI is set, so the TensorFlow tests must run): {reason}")
        sys.exit(1)
    print(f"SKIPPED: {reason} (sh .ci/bootstrap installs the wheels)")
    sys.exit(77)


def check(condition, what, evidence=""):
    if not condition:
        print(f"FAIL: {what}\n{evidence}")
        sys.exit(1)
    print(f"ok: {what}")
