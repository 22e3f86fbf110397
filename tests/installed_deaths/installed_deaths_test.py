#!/usr/bin/env python3
"""A plugin that dies or is refused inside the installed TensorFlow is never conformant
(CTest label `tensorflow`; docs/tensorflow/installed_deaths.md is the table of what each gets).

  installed_deaths_test.py --conformance BIN --tensorflow DIR --plugin SO --case CASE --work DIR
                           [--schema-python PY --validator SCRIPT --schema FILE]

Every plugin here is correct in plugin_conformance's own children (the emulated verdict is
"loads", its kernels pass) and goes wrong only inside the installed TensorFlow, so whatever
breaks the run comes from the --tensorflow leg. Each case asserts the exit code, the one result
that names the TensorFlow leg and where it died, and that the JSON, JUnit and HTML reports were
written (the JSON valid against specs/report/report.schema.json when a validator is given).

Cases:
  kernel_crash        AddV2's compute segfaults inside TensorFlow (--tier load,kernels): a crash
                      of runtime.session.in_tensorflow naming AddV2 and SIGSEGV; exit 1
  kernel_hang         AddV2's compute never returns there (--timeout 5000): a timeout naming
                      AddV2, found within the per-step limit, not the session's allowance; exit 1
  models_after_crash  the same crash with the models tier selected: the driver judges no model
                      the plugin's process never reached; the reports are written; exit 1, not 2
  load_refused        SE_InitPlugin returns an error there: load.in_tensorflow fails with
                      TensorFlow's status, and the contradiction stays a finding against the
                      suite; exit 1
  load_crash          SE_InitPlugin segfaults there: a crash of load.in_tensorflow; exit 1
  load_hang           SE_InitPlugin never returns there (--timeout 5000): a timeout of
                      load.in_tensorflow within the per-step limit; exit 1
  copy_wrong          memcpy_htod flips a byte there (copy_in_tensorflow.cc): the copies of
                      every dtype come back changed; runtime.copy.in_tensorflow fails naming a
                      dtype, while the session itself passes; exit 1
  ops_wrong           AddV2's first element off by one there: runtime.float_ops.in_tensorflow
                      fails naming AddV2 (the copies pass); with the kernels tier too, AddV2's
                      cases fail as well and the run has one root cause, compute_func (AddV2);
                      exit 1
  copy_crash          memcpy_htod segfaults there (copy_in_tensorflow.cc): a crash of
                      runtime.session.in_tensorflow naming the first dtype copied (float) and
                      SIGSEGV; the copies' check is skipped; exit 1
  model_crash         Relu's compute segfaults there (tests/model_defects' plugin; --tier
                      load,models): the session's own steps pass, the first model graph with a
                      Relu crashes (SIGSEGV), the emulated models pass; exit 1
  model_hang          Relu's compute never returns there (--timeout 5000): that model's timeout
                      within the per-step limit, not a crash; exit 1
  case_hang           a Floor that never returns on NaN there (--tier load,kernels, --timeout
                      5000): the generated special-values case is the Floor cell's timeout;
                      exit 1
  host_memory_refused AddV2 registered there with a HostMemory argument AddV2 lacks: the
                      registry refuses it at the first op, load.in_tensorflow fails with
                      INVALID_ARGUMENT (3) and TensorFlow's message; exit 1
  slow_kernel         AddV2 correct but 0.4 s per call there (SLOW_KERNEL_MS), each case well
                      within --timeout 4000 and all of them far beyond it: no timeout, every AddV2 case passes, the session
                      passes, the limits are stated; exit 0
Without a configured TensorFlow (an empty --tensorflow): skipped (77), or failed when CI is set.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

# The per-step limit the hang cases give (--timeout): what a hang costs instead of the whole
# session's allowance (that limit for each of its steps).
HANG_TIMEOUT_MS = 5000


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from tensorflow_checks import check, skip_or_fail  # noqa: E402


class Run:
    """One plugin_conformance run with every report written under the work folder."""

    def __init__(self, options, name, *args):
        self.base = os.path.join(options.work, name)
        for suffix in (".json", ".xml", ".html"):
            if os.path.exists(self.base + suffix):
                os.remove(self.base + suffix)
        command = [options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--json", self.base + ".json", "--junit", self.base + ".xml",
                   "--html", self.base + ".html", *args]
        print("running:", " ".join(command))
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        self.seconds = time.monotonic() - started
        self.exit_code = done.returncode
        self.stdout, self.stderr = done.stdout, done.stderr
        print(f"exit code {self.exit_code} after {self.seconds:.1f} s")
        self.check_reports(options)

    def check_reports(self, options):
        tail = self.stdout[-3000:] + self.stderr[-3000:]
        check(self.exit_code != 2, "no usage error (exit 2)", tail)
        check("type_error" not in self.stderr, "the driver did not crash on its own JSON", tail)
        for suffix in (".json", ".xml", ".html"):
            check(os.path.isfile(self.base + suffix), f"the {suffix[1:]} report is written", tail)
        self.report = json.load(open(self.base + ".json"))
        self.junit = open(self.base + ".xml").read()
        if options.validator:
            valid = subprocess.run([options.schema_python, options.validator, options.schema,
                                    self.base + ".json"], capture_output=True, text=True)
            check(valid.returncode in (0, 77), "the JSON report is valid against the schema",
                  valid.stdout + valid.stderr)

    def result(self, check_id):
        for result in self.report["results"]:
            if result["id"] == check_id:
                return result
        check(False, f"a result {check_id}", json.dumps([r["id"] for r in self.report["results"]
                                                         if r["outcome"] != "pass"]))

    def check_result(self, check_id, outcome, *words):
        result = self.result(check_id)
        check(result["outcome"] == outcome, f"{check_id} is {outcome}", json.dumps(result, indent=1))
        message = result.get("message", "")
        check("installed TensorFlow" in message, "its message names the TensorFlow leg", message)
        for word in words:
            check(word in message, f"its message names {word!r}", message)
        classname, name = check_id.rsplit(".", 1)
        testcase = (rf'<testcase classname="{re.escape(classname)}" name="{re.escape(name)}"[^>]*>'
                    rf'\s*<(?:error|failure) [^>]*type="{outcome}"')
        check(re.search(testcase, self.junit) is not None, f"JUnit: {check_id} is {outcome}")
        return result

    def check_exit(self, code):
        check(self.exit_code == code, f"exit code {code}",
              f"got {self.exit_code}\n{self.stdout[-3000:]}\n{self.stderr[-2000:]}")


def check_emulated_kernels_pass(run):
    """The emulated kernel tier saw nothing wrong: the failure is the TensorFlow leg's alone."""
    emulated = [r for r in run.report["results"] if r["id"].startswith("kernel.AddV2.float.")
                and not r["id"].endswith(".in_tensorflow")]
    check(emulated and all(r["outcome"] == "pass" for r in emulated),
          f"the emulated kernel tier passes AddV2 float ({len(emulated)} checks)",
          json.dumps([(r["id"], r["outcome"]) for r in emulated])[:1500])


def case_kernel_crash(options):
    run = Run(options, "kernel_crash", "--tier", "load,kernels")
    check_emulated_kernels_pass(run)
    result = run.check_result("runtime.session.in_tensorflow", "crash", "AddV2", "SIGSEGV")
    check(result.get("details", {}).get("kernel") == "AddV2", "details.kernel is AddV2", result)
    run.check_exit(1)


def case_kernel_hang(options):
    run = Run(options, "kernel_hang", "--tier", "load,kernels", "--timeout", str(HANG_TIMEOUT_MS))
    check_emulated_kernels_pass(run)
    run.check_result("runtime.session.in_tensorflow", "timeout", "AddV2", str(HANG_TIMEOUT_MS))
    seconds = run.report["installed_tensorflow"]["seconds"]
    check(seconds < 60, f"the installed TensorFlow's part took {seconds:.1f} s (< 60 s; the "
          "session's own allowance is that limit for each step)")
    run.check_exit(1)


def case_models_after_crash(options):
    run = Run(options, "models_after_crash", "--tier", "load,models")
    run.check_result("runtime.session.in_tensorflow", "crash", "AddV2")
    # The models are units of the run (issue 29, item 6): each is reported, none judged.
    installed = [r for r in run.report["results"] if r["id"].endswith(".installed")]
    check(installed and all(r["outcome"] == "skipped" and "died before" in r["message"]
                            for r in installed),
          "no model is judged: each is skipped, the plugin's process having died before the models",
          installed)
    run.check_exit(1)


def case_slow_kernel(options):
    # Each case within its limit: the session's allowance is that limit for each case, so none
    # is blamed however many there are (TensorFlowOptionTest.TheSessionsAllowanceIsTheLimitFor
    # EachCase pins the allowance itself).
    # 0.4 s a call: a tenth of the limit, and the calls together still several times it (1 s a
    # call held a CTest slot for 48 s to show the same).
    os.environ["SLOW_KERNEL_MS"] = "400"
    run = Run(options, "slow_kernel", "--tier", "load,kernels", "--timeout", "4000",
              "--filter", "load.*:runtime.session.*:kernel.AddV2.float.*.in_tensorflow")
    results = run.report["results"]
    cases = [r for r in results if r["id"].startswith("kernel.AddV2.")]
    print(f"{len(cases)} AddV2 cases inside TensorFlow in {run.seconds:.1f} s")
    check(not [r for r in results if r["outcome"] in ("timeout", "crash")],
          "slow is not a hang: no timeout, no crash",
          [(r["id"], r["message"][:200]) for r in results if r["outcome"] in ("timeout", "crash")])
    check(cases and all(r["outcome"] == "pass" for r in cases), "every AddV2 case passes",
          [(r["id"], r["outcome"]) for r in cases if r["outcome"] != "pass"][:5])
    check(run.result("runtime.session.in_tensorflow")["outcome"] == "pass",
          "the session passes", run.result("runtime.session.in_tensorflow"))
    check("time limits: 4000 ms per case or step (--timeout)" in run.stdout,
          "the console states the per-case limit", run.stdout[-2000:])
    run.check_exit(0)


def case_load_refused(options):
    run = Run(options, "load_refused", "--tier", "load")
    result = run.check_result("load.in_tensorflow", "fail", "FAILED_PRECONDITION",
                              "load_in_tensorflow: refuses to run inside TensorFlow")
    check(result.get("tf_code") == 9, "the result carries TensorFlow's code", result)
    installed = run.report["installed_tensorflow"]
    check(installed["verdict"] == "refuses" and "finding" in installed,
          "the emulated verdict (loads) is still a finding against the suite", installed)
    run.check_exit(1)


def case_load_crash(options):
    run = Run(options, "load_crash", "--tier", "load")
    run.check_result("load.in_tensorflow", "crash", "SIGSEGV")
    run.check_exit(1)


def case_load_hang(options):
    run = Run(options, "load_hang", "--tier", "load", "--timeout", str(HANG_TIMEOUT_MS))
    run.check_result("load.in_tensorflow", "timeout", str(HANG_TIMEOUT_MS))
    seconds = run.report["installed_tensorflow"]["seconds"]
    check(seconds < 60, f"the installed TensorFlow's part took {seconds:.1f} s (< 60 s)")
    run.check_exit(1)


def case_copy_wrong(options):
    run = Run(options, "copy_wrong", "--tier", "load")
    run.check_result("runtime.copy.in_tensorflow", "fail", "came back with other bytes",
                     "TFE_TensorHandleCopyToDevice")
    check(run.result("runtime.session.in_tensorflow")["outcome"] == "pass",
          "the session itself went to its end", run.result("runtime.session.in_tensorflow"))
    run.check_exit(1)


def case_ops_wrong(options):
    run = Run(options, "ops_wrong", "--tier", "load")
    run.check_result("runtime.float_ops.in_tensorflow", "fail", "AddV2")
    check(run.result("runtime.copy.in_tensorflow")["outcome"] == "pass",
          "the copies came back bit for bit", run.result("runtime.copy.in_tensorflow"))
    run.check_exit(1)
    both = Run(options, "ops_wrong_kernels", "--tier", "load,kernels")
    both.check_exit(1)
    causes = both.report.get("root_causes", [])
    check(len(causes) == 1 and "AddV2" in json.dumps(causes[0]),
          "one root cause, on AddV2's compute_func, for the ops and the kernel cases", causes)


def case_copy_crash(options):
    run = Run(options, "copy_crash", "--tier", "load")
    run.check_result("runtime.session.in_tensorflow", "crash", "copying a float tensor",
                     "SIGSEGV", "TFE_TensorHandleCopyToDevice")
    check(run.result("runtime.copy.in_tensorflow")["outcome"] == "skipped",
          "no copy is judged: none came back", run.result("runtime.copy.in_tensorflow"))
    run.check_exit(1)


def installed_models(run, outcome):
    """The ids of the models judged inside TensorFlow with that outcome."""
    return [r["id"] for r in run.report["results"]
            if r["id"].endswith(".installed") and r["outcome"] == outcome]


def check_emulated_models_pass(run):
    """The emulated models tier saw nothing wrong: the death is the TensorFlow leg's alone."""
    emulated = [r for r in run.report["results"]
                if r["id"].startswith("model.") and not r["id"].endswith(".installed")]
    bad = [(r["id"], r["outcome"]) for r in emulated if r["outcome"] not in ("pass", "not_supported")]
    check(any(r["outcome"] == "pass" for r in emulated) and not bad,
          f"the emulated models tier passes ({len(emulated)} checks)", bad)


def case_model_crash(options):
    run = Run(options, "model_crash", "--tier", "load,models")
    check_emulated_models_pass(run)
    check(run.result("runtime.session.in_tensorflow")["outcome"] == "pass",
          "the session's own steps went to their end", run.result("runtime.session.in_tensorflow"))
    crashed = installed_models(run, "crash")
    check(len(crashed) == 1, "exactly one model graph crashed (the first with a Relu)", crashed)
    run.check_result(crashed[0], "crash", "SIGSEGV", "as a graph")
    check(not installed_models(run, "timeout"), "no timeout")
    run.check_exit(1)


def case_model_hang(options):
    run = Run(options, "model_hang", "--tier", "load,models", "--timeout", str(HANG_TIMEOUT_MS))
    check_emulated_models_pass(run)
    timed_out = installed_models(run, "timeout")
    check(len(timed_out) == 1, "exactly one model graph timed out", timed_out)
    check(not installed_models(run, "crash"), "a hang is not a crash", installed_models(run, "crash"))
    run.check_result(timed_out[0], "timeout", str(HANG_TIMEOUT_MS), "as a graph")
    check(run.result("runtime.session.in_tensorflow")["outcome"] == "pass",
          "the session itself did not run out of its allowance",
          run.result("runtime.session.in_tensorflow"))
    seconds = run.report["installed_tensorflow"]["seconds"]
    check(seconds < 60, f"the installed TensorFlow's part took {seconds:.1f} s (< 60 s)")
    run.check_exit(1)


def case_case_hang(options):
    run = Run(options, "case_hang", "--tier", "load,kernels", "--timeout", str(HANG_TIMEOUT_MS))
    result = run.check_result("kernel.Floor.float.generated", "timeout", "Floor kernel",
                              "special values")
    check(result.get("details", {}).get("kernel") == "Floor", "details.kernel is Floor", result)
    bad = sorted(r["id"] for r in run.report["results"]
                 if r["outcome"] in ("fail", "crash", "timeout"))
    check(bad == ["kernel.Floor.float.generated"], "nothing else fails", bad)
    seconds = run.report["installed_tensorflow"]["seconds"]
    check(seconds < 120, f"the installed TensorFlow's part took {seconds:.1f} s (< 120 s)")
    run.check_exit(1)


def case_host_memory_refused(options):
    run = Run(options, "host_memory_refused", "--tier", "load")
    result = run.check_result("load.in_tensorflow", "fail", "INVALID_ARGUMENT",
                              "HostMemory arg 'no_such_argument' not found in OpDef",
                              "the first op")
    check(result.get("tf_code") == 3, "the result carries TensorFlow's code (3)", result)
    check(run.result("runtime.session.in_tensorflow")["outcome"] == "skipped",
          "the session is not run past the refusal", run.result("runtime.session.in_tensorflow"))
    run.check_exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--tensorflow", default="")
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--schema-python", default="")
    parser.add_argument("--validator", default="")
    parser.add_argument("--schema", default="")
    options = parser.parse_args()
    cases = {"kernel_crash": case_kernel_crash, "kernel_hang": case_kernel_hang,
             "models_after_crash": case_models_after_crash, "load_refused": case_load_refused,
             "load_crash": case_load_crash, "load_hang": case_load_hang,
             "slow_kernel": case_slow_kernel, "copy_wrong": case_copy_wrong,
             "ops_wrong": case_ops_wrong, "copy_crash": case_copy_crash,
             "model_crash": case_model_crash, "model_hang": case_model_hang,
             "case_hang": case_case_hang, "host_memory_refused": case_host_memory_refused}
    if not options.tensorflow:
        skip_or_fail("no TensorFlow configured (CONFORMANCE_TENSORFLOW_DIR)")
    if not os.path.isdir(options.tensorflow):
        skip_or_fail(f"no TensorFlow at {options.tensorflow}")
    os.makedirs(options.work, exist_ok=True)
    cases[options.case](options)


if __name__ == "__main__":
    main()
