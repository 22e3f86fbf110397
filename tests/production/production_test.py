#!/usr/bin/env python3
"""A production plugin from PyPI against its reviewed report (CTest label `production`).

  production_test.py --conformance BIN --expect NAME.json --venvs DIR --tensorflow TF_DIR --work DIR

The plugin's wheel is installed by .ci/bootstrap into DIR/<venv> (pip's error, when it failed, in
DIR/<venv>.pip_error). The plugin runs without TensorFlow (with NAME.json's `args`) and, when NAME.json has
`with_tensorflow`, with --tensorflow TF_DIR (the installed tensorflow package of the release it is
built for); `device_free` adds a run of the device-free tiers for a plugin without a device here.
Each JSON report must match NAME.json: exit code, outcome counts, the checks that were not
skipped, root causes, the TensorFlow verdict, the device tiers not run, the installed verdict and
the kernel comparison (`host_cpu_without`: other expectations on a CPU lacking a feature the
plugin's kernels need). Without the wheel or the TensorFlow folder it needs: skipped (77) with the
reason, or failed when CI is set.
"""
import argparse
import glob
import json
import os
import subprocess
import sys


def skip_or_fail(reason):
    if os.environ.get("CI"):
        print(f"FAIL (CI is set, so the production tests must run): {reason}")
        sys.exit(1)
    print(f"SKIPPED: {reason} (sh .ci/bootstrap installs the wheels)")
    sys.exit(77)


failures = []


def check(condition, what, evidence=""):
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)
        if evidence:
            print(f"  {evidence}"[:3000])


def find_plugin(options, expected):
    venv = os.path.join(options.venvs, expected["venv"])
    pip_error = venv + ".pip_error"
    if os.path.exists(pip_error):
        skip_or_fail(f"{expected['wheel']} could not be installed; pip said:\n"
                     + open(pip_error).read().strip())
    found = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", expected["library"]))
    if not found:
        skip_or_fail(f"{expected['wheel']} is not installed in {venv}")
    if "with_tensorflow" in expected and (not options.tensorflow
                                          or not os.path.isdir(options.tensorflow)):
        skip_or_fail(f"no tensorflow-cpu {expected['release']} package folder configured")
    return found[0]


def run(options, plugin, name, extra):
    report_path = os.path.join(options.work, name + ".json")
    done = subprocess.run([options.conformance, plugin, "--json", report_path] + extra,
                          capture_output=True, text=True, timeout=1200)
    with open(os.path.join(options.work, name + ".txt"), "w") as log:
        log.write(done.stdout + done.stderr)
    return done, json.load(open(report_path))


def root_causes(report):
    return [{"checks": cause["checks"], "call": cause.get("call", ""),
             "problem": cause.get("problem", "")} for cause in report["root_causes"]]


def compare_common(label, done, report, expected):
    check(done.returncode == expected["exit_code"],
          f"{label}: exit code {expected['exit_code']} (got {done.returncode})",
          done.stdout[-2000:] + done.stderr[-1000:])
    check(root_causes(report) == expected["root_causes"],
          f"{label}: root causes {expected['root_causes']}", root_causes(report))


def cpu_flags():
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def apply_host_override(expected):
    """A plugin whose kernels dispatch on the host's instruction set computes some cells only on
    some CPUs: NAME.json's `host_cpu_without` replaces the named expectations on a host whose
    CPU lacks `flag` (with the measured reason, printed)."""
    override = expected.get("host_cpu_without")
    if not override or override["flag"] in cpu_flags():
        return expected
    print(f"this CPU has no {override['flag']}: {override['reason']}")
    expected["without_tensorflow"].update(override["without_tensorflow"])
    return expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--expect", required=True)
    parser.add_argument("--venvs", required=True)
    parser.add_argument("--tensorflow", default="")
    parser.add_argument("--work", required=True)
    options = parser.parse_args()
    expected = apply_host_override(json.load(open(options.expect)))
    os.makedirs(options.work, exist_ok=True)
    plugin = find_plugin(options, expected)
    print(f"{expected['name']}: {plugin}")

    plain = expected["without_tensorflow"]
    done, report = run(options, plugin, "without_tensorflow", plain.get("args", []))
    compare_common("without TensorFlow", done, report, plain)
    counts = {outcome: report["counts"][outcome] for outcome in plain["counts"]}
    check(counts == plain["counts"], f"without TensorFlow: counts {plain['counts']}", counts)
    ran = [result["id"] for result in report["results"] if result["outcome"] != "skipped"]
    check(ran == plain["not_skipped"], f"without TensorFlow: checks run {plain['not_skipped']}",
          ran)
    summary = (report.get("tensorflow_verdict") or {}).get("summary", "")
    check(summary.startswith(plain["tensorflow_verdict"]),
          f"without TensorFlow: verdict '{plain['tensorflow_verdict']}...'", summary)

    # A plugin without a device here (DirectML without D3D12): the device tiers that did not run.
    if "no_device" in plain:
        not_run = (report.get("no_device") or {}).get("device_tiers_not_run")
        check(not_run == plain["no_device"],
              f"without TensorFlow: no device, device tiers not run {plain['no_device']}", not_run)
    # The device-free tiers a runner without the hardware gates on (--tier load,graph,profiler).
    if "device_free" in expected:
        gate = expected["device_free"]
        done, report = run(options, plugin, "device_free", gate["args"])
        compare_common("device-free tiers", done, report, gate)
        check(report.get("conformant") == gate["conformant"],
              f"device-free tiers: conformant {gate['conformant']}", report.get("not_conformant_reason"))
    if "with_tensorflow" not in expected:
        print(f"not run in TensorFlow: {expected['why_no_tensorflow']}")
        finish(options)
        return

    installed_expected = expected["with_tensorflow"]
    done, report = run(options, plugin, "with_tensorflow",
                       installed_expected.get("args", []) + ["--tensorflow", options.tensorflow])
    compare_common("with TensorFlow", done, report, installed_expected)
    installed = report.get("installed_tensorflow", {})
    check(installed.get("release") == expected["release"],
          f"with TensorFlow: release {expected['release']}", installed.get("release"))
    check(installed.get("verdict") == installed_expected["installed_verdict"],
          f"with TensorFlow: installed verdict {installed_expected['installed_verdict']}",
          installed.get("summary"))
    check(installed.get("decided_here", False) == installed_expected["decided_here"],
          "with TensorFlow: judged in the installed TensorFlow only", installed)
    if "not_conformant_reason" in installed_expected:
        check(report.get("not_conformant_reason") == installed_expected["not_conformant_reason"],
              f"with TensorFlow: not conformant because {installed_expected['not_conformant_reason']}",
              report.get("not_conformant_reason"))
    check("finding" not in installed, "with TensorFlow: no finding against the suite",
          installed.get("finding"))
    if "kernels" not in installed_expected:  # a device-free run (no device here): no kernel ran
        finish(options)
        return
    kernels = installed.get("kernels", {})
    want = installed_expected["kernels"]
    check(kernels.get("cpu_kernel_plugin", False) == want["cpu_kernel_plugin"],
          "with TensorFlow: kernel cases ran as a CPU kernel plugin's", kernels)
    check(kernels.get("compared") == want["compared"],
          f"with TensorFlow: {want['compared']} cases ran one of the plugin's kernels",
          kernels.get("compared"))
    check(len(kernels.get("disagreements", [])) == want["disagreements"],
          f"with TensorFlow: {want['disagreements']} disagreements",
          kernels.get("disagreements", [])[:5])
    if want.get("every_case_ran_tensorflows_own_kernel"):
        check(kernels.get("cases", 0) > 0 and kernels.get("not_on_device") == kernels.get("cases"),
              "with TensorFlow: every case ran TensorFlow's own kernel (no CPU kernel of the "
              "plugin for its op and dtype)", kernels)
    # The models as graphs (harness/models/installed_model_graphs.h): how many agree, and which
    # of the plugin's own ops its graph optimizer rewrote them into (op: nodes, over all models).
    if "models" in installed_expected:
        models = installed.get("models", {})
        want = installed_expected["models"]
        for key in ("agree", "disagree"):
            check(models.get(key) == want[key], f"with TensorFlow: {want[key]} models {key}",
                  models)
        check(models.get("rewritten") == want["rewritten"],
              f"with TensorFlow: graphs rewritten into {want['rewritten'] or 'none of its ops'}",
              models.get("rewritten"))
    finish(options)


def finish(options):
    if failures:
        print(f"{len(failures)} expectation(s) of {options.expect} not met; if the plugin or the "
              "suite changed on purpose, review the new report and update the file")
        sys.exit(1)


if __name__ == "__main__":
    main()
