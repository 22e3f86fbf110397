"""catches_an_edit.py AUDIT TENSORFLOW_DIR RELEASE: the audit's --check must fail when a committed
fact is false. Copies the committed facts of RELEASE into a scratch folder, edits in the claim the
"2.16+" profile made (libtensorflow_framework.so.2 exports TF_AssignVariable; 2.19 to 2.21 export
it from no library), and expects --check to exit 1 naming that function."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FUNCTION = "TF_AssignVariable"
LIBRARY = "libtensorflow_framework.so.2"


def main(audit, tensorflow_dir, release):
    facts_dir = os.path.join(os.path.dirname(os.path.abspath(audit)), "..", "releases")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, release + ".json")
        shutil.copy(os.path.join(facts_dir, release + ".json"), path)
        with open(path) as source:
            facts = json.load(source)
        if FUNCTION in facts["exports"][LIBRARY]:
            print("FAIL: the committed facts of %s already list %s" % (release, FUNCTION))
            return 1
        facts["exports"][LIBRARY] = sorted(facts["exports"][LIBRARY] + [FUNCTION])
        with open(path, "w") as out:
            json.dump(facts, out)
        result = subprocess.run([sys.executable, audit, "--installed", tensorflow_dir, "--check",
                                 "--facts", scratch, release], capture_output=True, text=True)
    print(result.stdout + result.stderr)
    if result.returncode == 1 and "committed only ['%s']" % FUNCTION in result.stdout:
        print("PASS: --check fails on the edited fact and names %s" % FUNCTION)
        return 0
    print("FAIL: --check exited %d on the edited fact" % result.returncode)
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
