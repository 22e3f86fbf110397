#!/usr/bin/env python3
"""package.ci_pipelines: the copy-ready pipelines of docs/ci/ are well-formed and runnable.

Usage: check_ci_pipelines.py PREFIX VERSION CI_DIR

For the GitHub Actions workflow and the GitLab CI file in CI_DIR: YAML parses; the pipeline
installs a .deb named as cpack names ours, runs ctest, publishes the JUnit and HTML reports and
shards with GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX; every command it runs from the package exists
in the installed package at PREFIX (and runs, when it is plugin_conformance itself), and every
other command exists on this machine; the CMake lines it documents use only keywords that
plugin_conformance_add_test() accepts.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml

PACKAGE_TOOLS = ("plugin_conformance", "plugin_bench")
errors = []


def error(path, message):
    errors.append(f"{path}: {message}")


def shell_lines(script):
    """A run: block's commands, one per line, backslash continuations joined, and the matrix
    expression a runner substitutes replaced by a value."""
    script = re.sub(r"\\\n\s*", " ", script)
    return re.sub(r"\$\{\{\s*matrix\.shard\s*\}\}", "0", script).splitlines()


def github_commands(document):
    lines, env = [], {}
    for name, job in document["jobs"].items():
        env.update(job.get("env", {}))
        for step in job["steps"]:
            if "run" in step:
                lines += shell_lines(step["run"])
        artifacts = [step["with"]["path"] for step in job["steps"] if "upload-artifact" in step.get("uses", "")]
    return lines, env, "\n".join(artifacts)


def gitlab_commands(document):
    lines, artifacts = [], ""
    for name, job in document.items():
        if not isinstance(job, dict) or "script" not in job:
            continue
        lines += job.get("before_script", []) + job["script"]
        artifacts += "\n".join(job.get("artifacts", {}).get("paths", []))
        if "parallel" not in job:
            error(name, "no `parallel:` (sharding)")
    return lines, {}, artifacts


def program_of(line):
    """The program a shell line runs, past `export`/`VAR=value` prefixes; None for comments."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None, []
    words = shlex.split(line, comments=True)
    if words and words[0] == "export":
        return None, []
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return (words[0], words) if words else (None, [])


def check(path, prefix, version, function_keywords):
    text = open(path).read()
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as problem:
        error(path, f"not well-formed YAML: {problem}")
        return
    lines, env, artifacts = (github_commands if "jobs" in document else gitlab_commands)(document)
    whole = text
    commands_and_env = "\n".join(lines) + "\n" + "\n".join(env)
    for needed in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"):
        if not re.search(needed + r"\b", commands_and_env):
            error(path, f"does not shard: {needed} never set")
    # The shard variables must reach plugin_conformance only: a job-wide value makes the
    # plugin's gtest unit tests run a part of their tests, or none, and still pass.
    exported = [line for line in lines if re.match(r"\s*export\b.*GTEST_(TOTAL_SHARDS|SHARD_INDEX)", line)]
    if any(name.startswith("GTEST_") for name in env) or exported:
        error(path, "shards every test: GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX are set for the whole "
                    "job; set them on the ctest command that runs label plugin_conformance only")
    for line in lines:
        if program_of(line)[0] == "ctest" and "GTEST_SHARD_INDEX" in line and \
                not re.search(r"(-L|--label-regex) ['\"]?\^?plugin_conformance", line):
            error(path, "shards every test: the sharded ctest command does not select "
                        "--label-regex plugin_conformance")
    if not any(program_of(line)[0] == "ctest" for line in lines):
        error(path, "never runs ctest")
    deb = re.search(r"(plugin-conformance)_([0-9.]+)_([a-z0-9]+)\.deb", whole)
    if not deb or deb.group(2) != version:
        error(path, f"does not name the .deb cpack makes (plugin-conformance_{version}_<arch>.deb)")
    if not re.search(r"apt-get install [^\n]*\./plugin-conformance[^ \n]*\.deb", whole):
        error(path, "does not install the .deb with apt-get install ./...deb")
    junit = re.search(r"JUNIT \$\{CMAKE_BINARY_DIR\}/(\S+)", whole)
    html = re.search(r"--html \$\{CMAKE_BINARY_DIR\}/(\S+?)\)?$", whole, re.M)
    for report, what in ((junit, "JUnit"), (html, "HTML")):
        if not report or f"build/{report.group(1)}" not in artifacts:
            error(path, f"does not publish the {what} report the CMake lines write")
    call = re.search(r"plugin_conformance_add_test\((.*?)\)$", whole, re.S | re.M)
    if not call:
        error(path, "does not show the plugin_conformance_add_test() call it relies on")
    else:
        words = re.sub(r"^#", "", call.group(1), flags=re.M).split()
        for keyword in (word for word in words if re.fullmatch(r"[A-Z]+", word)):
            if keyword not in function_keywords:
                error(path, f"plugin_conformance_add_test() has no keyword {keyword}")
    tools_env = dict(os.environ, PATH=f"{prefix}/bin:{os.environ.get('PATH', '')}")
    for line in lines:
        program, words = program_of(line)
        if program is None:
            continue
        if program in PACKAGE_TOOLS or program.startswith("plugin_"):
            if not os.access(os.path.join(prefix, "bin", program), os.X_OK):
                error(path, f"runs {program}, which the package does not install")
                continue
            run = subprocess.run(words, env=tools_env, capture_output=True, text=True)
            if run.returncode != 0:
                error(path, f"`{line.strip()}` exits {run.returncode}: {run.stderr.strip()}")
        elif shutil.which(program) is None and program not in ("apt-get", "curl"):
            error(path, f"runs {program}, which is not on this machine")


def main():
    prefix, version, ci_dir = sys.argv[1:4]
    add_test = open(os.path.join(prefix, "lib/cmake/plugin_conformance/PluginConformanceAddTest.cmake")).read()
    parse = re.search(r'cmake_parse_arguments\(PARSE_ARGV 0 ARG "" "([^"]*)"\s*"([^"]*)"', add_test)
    function_keywords = set(";".join(parse.groups()).split(";"))
    files = ("github-actions.yml", "gitlab-ci.yml")
    for name in files:
        path = os.path.join(ci_dir, name)
        if not os.path.exists(path):
            error(path, "missing")
            continue
        check(path, prefix, version, function_keywords)
    for message in errors:
        print(message, file=sys.stderr)
    if not errors:
        print(f"check_ci_pipelines: {', '.join(files)} parse and their package commands exist")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
