#!/usr/bin/env python3
"""package.ci_pipelines_run: the shell steps of each copy-ready pipeline in CI_DIR run, as its
CI would run them, on a plugin repository made from the consumer project (its plugin, its
gtest unit tests, its plugin_conformance_add_test() lines), against the installed package.

Usage: run_ci_pipelines.py PREFIX CONSUMER_SOURCE CI_DIR WORK_DIR

apt-get and curl are stubs (the package is already installed at PREFIX, found through PATH and
CMAKE_PREFIX_PATH); every other command runs for real, once per shard of the pipeline's
matrix. Each shard must run the plugin's unit tests whole (no gtest binary may see the shard
variables and run part of its tests, or none), run its part of the conformance checks with a
JUnit report, and produce every artifact the pipeline publishes; the shards' checks must not
overlap.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import yaml

SHARDS = 4
errors = []


def error(message):
    errors.append(message)
    print(f"run_ci_pipelines: {message}", file=sys.stderr)


def github_steps(document, shard):
    steps, artifacts = [], []
    for job in document["jobs"].values():
        shards = job.get("strategy", {}).get("matrix", {}).get("shard", [0])
        if len(shards) != SHARDS:
            error(f"github-actions.yml: expected a matrix of {SHARDS} shards, got {shards}")
        for step in job["steps"]:
            if "run" in step:
                script = re.sub(r"\$\{\{\s*matrix\.shard\s*\}\}", str(shard), step["run"])
                if "${{" in script:
                    error(f"github-actions.yml: unsupported expression in: {script}")
                steps.append(script)
            if "upload-artifact" in step.get("uses", ""):
                artifacts += step["with"]["path"].split()
    return steps, {}, artifacts


def gitlab_steps(document, shard):
    steps, artifacts = [], []
    for job in document.values():
        if isinstance(job, dict) and "script" in job:
            if job.get("parallel") != SHARDS:
                error(f"gitlab-ci.yml: expected parallel: {SHARDS}")
            steps += job.get("before_script", []) + job["script"]
            artifacts += job.get("artifacts", {}).get("paths", [])
    return steps, {"CI_NODE_TOTAL": str(SHARDS), "CI_NODE_INDEX": str(shard + 1)}, artifacts


def make_stubs(directory):
    os.makedirs(directory, exist_ok=True)
    stubs = {
        "apt-get": 'echo "stub apt-get $*"\n',
        # curl -o FILE URL: an empty download, which the apt-get stub "installs".
        "curl": 'while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done\n',
    }
    for name, body in stubs.items():
        path = os.path.join(directory, name)
        with open(path, "w") as out:
            out.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)


def gtest_outputs(build):
    log = os.path.join(build, "Testing", "Temporary", "LastTest.log")
    return open(log, errors="replace").read() if os.path.exists(log) else ""


def junit_cases(path):
    root = ElementTree.parse(path).getroot()
    return [case.get("classname", "") + "." + case.get("name", "") for case in root.iter("testcase")]


def run_pipeline(name, document, prefix, consumer, work):
    repo = os.path.join(work, name, "repo")
    shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    shutil.copytree(consumer, repo)
    stubs = os.path.join(work, name, "stubs")
    make_stubs(stubs)
    seen = {}
    for shard in range(SHARDS):
        steps, extra_env, artifacts = (github_steps if "jobs" in document else gitlab_steps)(document, shard)
        env = dict(os.environ, PATH=f"{stubs}:{prefix}/bin:{os.environ['PATH']}",
                   CMAKE_PREFIX_PATH=prefix, PLUGIN_CONFORMANCE_DEB="https://example.invalid/p.deb",
                   **extra_env)
        for variable in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", "CI"):
            env.pop(variable, None)
        for path in glob.glob(os.path.join(repo, "build", "conformance.*")):
            os.remove(path)
        for step in steps:
            run = subprocess.run(["bash", "-eo", "pipefail", "-c", step], cwd=repo, env=env,
                                 capture_output=True, text=True)
            if run.returncode != 0:
                error(f"{name} shard {shard}: `{step.strip()}` exits {run.returncode}:\n"
                      f"{run.stdout[-3000:]}{run.stderr[-3000:]}")
                return
            if "ctest" in step and "--label-exclude plugin_conformance" in step:
                log = gtest_outputs(os.path.join(repo, "build"))
                if "[  PASSED  ] 0 tests" in log or "[==========] 0 tests" in log:
                    error(f"{name} shard {shard}: a unit test binary ran 0 tests (it saw shard variables)")
                if "ReluKernelTest" not in log or "HostPluginTest" not in log:
                    error(f"{name} shard {shard}: the unit test step did not run the plugin's unit tests")
        for artifact in artifacts:
            if not os.path.exists(os.path.join(repo, artifact)):
                error(f"{name} shard {shard}: publishes {artifact}, which the steps did not write")
        junit = os.path.join(repo, "build", "conformance.junit.xml")
        if not os.path.exists(junit):
            continue
        cases = junit_cases(junit)
        if not cases:
            error(f"{name} shard {shard}: the conformance JUnit report has no test cases")
        for case in cases:
            if case in seen:
                error(f"{name}: {case} ran in shard {seen[case]} and in shard {shard}")
            seen[case] = shard
    print(f"run_ci_pipelines: {name}: {SHARDS} shards ran, {len(seen)} conformance checks in all")


def main():
    prefix, consumer, ci_dir, work = (os.path.abspath(argument) for argument in sys.argv[1:5])
    for name in ("github-actions.yml", "gitlab-ci.yml"):
        with open(os.path.join(ci_dir, name)) as text:
            run_pipeline(name, yaml.safe_load(text), prefix, consumer, work)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
