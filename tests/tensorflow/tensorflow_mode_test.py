#!/usr/bin/env python3
"""plugin_conformance --tensorflow DIR|auto against the installed wheels (CTest label `tensorflow`).

  tensorflow_mode_test.py --conformance BIN --case CASE [--tensorflow DIR] [--plugin SO] --work DIR

Cases:
  loads       the plugin loads in the installed TensorFlow and the suite agrees: exit 0, the
              verdict block names the release, every report carries it (console, JSON, JUnit,
              HTML); every (op, dtype) the kernel tier passed agrees with TensorFlow's CPU inside
              TensorFlow; prints the time the mode adds (the same run without --tensorflow)
  refused     TensorFlow aborts on the plugin: its abort message equals the emulated one, and
              the TensorFlow leg files it as a failed load.in_tensorflow (exit 1)
  kernel_defect  a plugin whose AddV2 computes wrong values: TensorFlow's CPU catches it inside
              TensorFlow (one root cause with the kernel tier's), its other ops agree; the
              failure carries the seed, inputs, tolerance, ULP and relative distance
  release     the installed release picks the profile that stands for it (not newest for
              2.15), and any contradiction is reported as a finding against the suite
  generated_defect   a Floor kernel that truncates (Floor has no scenario): a case generated from
              the op's definition catches it, one root cause naming the kernel, nothing else fails
  generated_crash    a Floor that traps on NaN: a crash of the kernel, in the case it died in
  generated_correct  a correct Floor: exit 0, its cell is `generated` (console, JSON, HTML, JUnit)
  vendor_scenarios   --scenarios DIR (a Floor scenario) with the truncating Floor: the vendor's
              cases run in TensorFlow too and its CPU catches the kernel; the generated cases of
              that cell run as well
  vendor_scenario_keeps_generated   the same scenarios with a Floor that gives 0 for NaN: the
              vendor's cases (no NaN) pass, the generated special values catch it
  float_attr_varied   a LeakyRelu that ignores alpha: the generated case with alpha halved
              catches it (with --expect-pass: a correct LeakyRelu passes that case)
  plugin_op_scenarios  --scenarios DIR with a scenario of an op the plugin defines itself
              (tests/vendor_ops): loads as in the kernel tier (it was an "unknown op" usage error
              with --tensorflow), runs there, and stays out of TensorFlow, whose CPU has no kernel
  generated_cell  the generated cell --cell of the plugin: with --expect-pass it passes (exit 0)
              and its message holds --expect-text; without, it alone fails (exit 1), its message
              holding --expect-text. For where TensorFlow's CPU is no oracle: Lgamma on denormals
              (judged against float64), ClipByValue (bounds ordered as the op requires)
  cpu_kernel_plugin  a CPU kernel plugin (tests/cpu_kernel_plugins): the mock core's verdict
              (its kernels on the host device) and the installed TensorFlow's (on its CPU device)
              agree: exit 0 with and without --tensorflow, every (op, dtype) passed on the host
              device agrees with TensorFlow's default CPU kernels
  cpu_kernel_defect  its leaky Relu: both verdicts blame Relu, in one root cause; AddV2 agrees
  cpu_kernel_generated  a CPU kernel plugin's truncating Floor (tests/cpu_kernel_plugins): its
              generated cases, with and without the plugin, fail it alone
  precision   a TF32 MatMul (tests/kernel_defects): undeclared, a .in_tensorflow check fails;
              declared with --precision within its bound, every one passes and the run is
              conformant
  auto_none   --tensorflow auto with no Python that has TensorFlow: exit 2 naming what it tried
  not_a_dir   a folder without libtensorflow_cc.so.2: exit 2 naming the file looked for
Without a configured TensorFlow (an empty --tensorflow): skipped (77), or failed when CI is set.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from tensorflow_checks import check, skip_or_fail  # noqa: E402


def run(args, env=None):
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    return done, time.monotonic() - started


def reports(work, name):
    base = os.path.join(work, name)
    return base, ["--json", base + ".json", "--junit", base + ".xml", "--html", base + ".html"]


def case_loads(options):
    base, files = reports(options.work, "loads")
    done, seconds = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow]
                        + files)
    output = done.stdout + done.stderr
    check(done.returncode == 0, "exit 0 with --tensorflow", output)
    report = json.load(open(base + ".json"))
    installed = report["installed_tensorflow"]
    release = installed["release"]
    check(re.fullmatch(r"\d+\.\d+\.\d+", release) is not None, f"release {release} read", installed)
    line = f"TensorFlow {release} (installed): loads the plugin"
    check(line in done.stdout, f"console: '{line}'", done.stdout[-3000:])
    check(installed["agrees"] and installed["summary"] == "loads the plugin",
          "JSON: loads, and agrees with the emulated verdict", installed)
    junit = open(base + ".xml").read()
    check(f'name="installed_tensorflow" value="{release}"' in junit, "JUnit: the release", "")
    check('name="installed_tensorflow_verdict" value="loads the plugin"' in junit,
          "JUnit: the confirmation", "")
    html = open(base + ".html").read()
    check('id="installed-tensorflow"' in html and f"TensorFlow {release} (installed)" in html,
          "HTML: the installed line", "")
    kernels = installed["kernels"]
    check(kernels["compared"] > 0 and not kernels["disagreements"],
          f"{kernels['compared']} kernel cases on the plugin's device agree with TensorFlow's CPU",
          kernels["disagreements"][:3])
    covered = {(op["op"], dtype) for op in report["op_coverage"]["ops"]
               for dtype, cell in op["cells"].items() if cell["state"] == "passed"}
    judged = {(op, dtype): verdict for op, cells in kernels["cells"].items()
              for dtype, verdict in cells.items()}
    missing = sorted(cell for cell in covered if judged.get(cell) != "agrees")
    check(covered and not missing,
          f"every registered (op, dtype) with a scenario ({len(covered)}) agrees inside TensorFlow",
          missing[:10])
    check("kernels: " in done.stdout and "agree with TensorFlow's CPU" in done.stdout,
          "console: the kernels line", done.stdout[-2000:])
    if options.expect_release:
        check(release == options.expect_release, f"the installed release is {options.expect_release}")
    # What the mode costs: the same run without it.
    _, plain_base = reports(options.work, "plain")
    plain, plain_seconds = run([options.conformance, options.plugin] + plain_base)
    check(plain.returncode == 0, "exit 0 without --tensorflow", plain.stderr)
    print(f"measured: with --tensorflow {seconds:.1f} s, without {plain_seconds:.1f} s, "
          f"the installed TensorFlow's own part {installed['seconds']:.1f} s")


def case_refused(options):
    base, files = reports(options.work, "refused")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow]
                  + files)
    report = json.load(open(base + ".json"))
    installed = report["installed_tensorflow"]
    emulated = report["tensorflow_verdict"]
    check(installed["summary"].startswith("aborts: "), "TensorFlow aborts on the plugin", installed)
    check(installed["message"] == emulated["message"] and installed.get("code") == emulated.get("code"),
          "its abort status equals the emulated one", json.dumps([installed, emulated], indent=1))
    line = f"TensorFlow {installed['release']} (installed): {installed['summary']}"
    check(line in done.stdout, f"console: '{line}'", done.stdout[-3000:])
    check(installed["agrees"] and "finding" not in installed, "no finding against the suite")
    # The TensorFlow leg counts on its own (issue 29), not only through the emulated verdict.
    leg = [r for r in report["results"] if r["id"] == "load.in_tensorflow"]
    check(len(leg) == 1 and leg[0]["outcome"] == "fail" and installed["message"] in leg[0]["message"]
          and leg[0].get("tf_code") == installed.get("code"),
          "the abort is a failed load.in_tensorflow with TensorFlow's code and message", leg)
    check(done.returncode == 1, "the plugin is not conformant (exit 1)", done.returncode)


def case_installed_layout(options):
    """A plugin whose RUNPATH reaches the wheel's python folder from tensorflow-plugins
    ($ORIGIN/../tensorflow/python) loads in --tensorflow as it does installed (2.21.0 refuses it
    in the build folder: its _pywrap_tensorflow_internal.so has no SONAME)."""
    base, files = reports(options.work, "installed_layout")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load"] + files)
    report = json.load(open(base + ".json"))
    installed = report["installed_tensorflow"]
    check(installed["summary"] == "loads the plugin" and installed["agrees"],
          "TensorFlow loads it from a tensorflow-plugins folder, as the suite judges it", installed)
    check(done.returncode == 0, "exit 0", done.stdout[-2000:] + done.stderr[-1000:])
    leaked = [line for line in (done.stdout + done.stderr).splitlines()
              if "plugin_conformance_site." in line]
    check(not leaked, "no message names the temporary folder", leaked[:3])


def case_release(options):
    base, files = reports(options.work, "release")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load"] + files)
    report = json.load(open(base + ".json"))
    installed = report["installed_tensorflow"]
    said = re.search(r"TensorFlow (\S+) \(installed\) is emulated by profile (\S+)", done.stderr)
    check(said is not None and said.group(1) == installed["release"], "the profile choice is said",
          done.stderr)
    check(report["profile"] == said.group(2), f"the run emulates profile {said.group(2)}")
    if installed["release"].startswith("2.15."):
        check(report["profile"] != "newest", "2.15 is not emulated by the newest profile")
    if not installed["agrees"]:
        finding = installed["finding"]
        check(installed["emulated"] in finding and installed["installed"] in finding,
              "a contradiction is a finding with both texts", finding)
        check("FINDING against the suite: " + finding in done.stdout, "the console says so",
              done.stdout[-3000:])
    else:
        check("finding" not in installed, "agreement carries no finding")


def case_kernel_defect(options):
    base, files = reports(options.work, "kernel_defect")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load,kernels"] + files)
    report = json.load(open(base + ".json"))
    kernels = report["installed_tensorflow"]["kernels"]
    check(done.returncode == 1, "a wrong kernel fails the run", done.stdout[-2000:])
    check(kernels["cells"].get("AddV2", {}).get("float") == "disagrees",
          "TensorFlow's CPU catches the wrong AddV2 on the plugin's device", kernels["cells"].get("AddV2"))
    failed = [r["id"] for r in report["results"]
              if r["id"].endswith(".in_tensorflow") and r["outcome"] == "fail"]
    # The session's first float ops run AddV2 too (runtime.float_ops.in_tensorflow).
    check(failed and all(i.startswith("kernel.AddV2.") or i == "runtime.float_ops.in_tensorflow"
                         for i in failed),
          f"{len(failed)} AddV2 cases fail as .in_tensorflow, no other op", failed[:5])
    causes = report["root_causes"]
    check(len(causes) == 1 and causes[0].get("kernel") == "AddV2",
          "one root cause, AddV2's compute_func, for its cases and the first float ops", causes)
    others = {verdict for op, cells in kernels["cells"].items() if op != "AddV2"
              for verdict in cells.values()}
    check("disagrees" not in others, "every other op (the reference's kernels) agrees", others)
    check(len(report["root_causes"]) == 1, "one root cause for the one defect",
          json.dumps(report["root_causes"], indent=1)[:2000])
    # Issue 29 item 16: what a vendor needs to reproduce it, as the kernel tier's failures give.
    first = next((r for r in report["results"] if r["id"].startswith("kernel.")
                  and r["id"].endswith(".in_tensorflow") and r["outcome"] == "fail"), {})
    details = first.get("details", {})
    for key in ("seed", "inputs", "tolerance", "ulp_distance", "relative_distance", "index"):
        check(details.get(key, "") != "", f"the failure carries {key}", details)
    check("ULP" in first.get("message", ""), "its message states the distance in ULP",
          first.get("message"))


def case_precision(options):
    """Issue 29 item 5: a TF32 MatMul declared within its bound with --precision passes its
    .in_tensorflow checks, as it passes the kernel tier's; undeclared, they fail (the test
    tells)."""
    precision = os.path.join(options.work, "precision.yaml")
    os.makedirs(options.work, exist_ok=True)
    with open(precision, "w") as out:
        out.write("- op: MatMul\n  dtype: float\n  rtol: 1.0e-2\n  atol: 1.0e-2\n"
                  "  reason: float32 MatMul runs in TF32 on tensor cores\n")
    selection = ["--tier", "load,kernels", "--filter", "load.*:kernel.MatMul.float.*", "--seed", "7"]
    outcomes = {}
    for name, extra in (("undeclared", []), ("declared", ["--precision", precision])):
        base, files = reports(options.work, name)
        done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow]
                      + selection + extra + files)
        report = json.load(open(base + ".json"))
        outcomes[name] = (done, {r["id"]: r for r in report["results"]
                                 if r["id"].startswith("kernel.MatMul.float.")
                                 and r["id"].endswith(".in_tensorflow")})
    done, undeclared = outcomes["undeclared"]
    check(any(r["outcome"] == "fail" for r in undeclared.values()),
          "undeclared, the TF32 MatMul fails a .in_tensorflow check",
          {i: r["outcome"] for i, r in undeclared.items()})
    done, declared = outcomes["declared"]
    check(declared and all(r["outcome"] == "pass" for r in declared.values()),
          f"declared, its {len(declared)} .in_tensorflow checks pass",
          {i: (r["outcome"], r.get("message", "")[:300]) for i, r in declared.items()})
    check(done.returncode == 0, "declared, the run is conformant", done.stdout[-3000:])


def case_cpu_kernel_generated(options):
    """Issue 29 item 4: a CPU kernel plugin's Floor (priority 1, which TensorFlow picks) that
    truncates: the generated cases, run with and without the plugin, catch it, naming the CPU
    kernel; its Relu and AddV2 still agree."""
    done, report, results, _ = generated_run(options, "cpu_kernel_generated")
    floor = results.get("kernel.Floor.float.generated", {})
    check(floor.get("outcome") == "fail", "kernel.Floor.float.generated fails", floor)
    check("CPU kernel" in floor.get("message", "") and "without the plugin" in floor.get("message", ""),
          "its message names the plugin's CPU kernel and the run without the plugin", floor)
    check(floor.get("details", {}).get("kernel") == "Floor", "blamed on the Floor kernel", floor)
    wrong = [i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout")
             and i != "kernel.Floor.float.generated"]
    check(not wrong, "nothing else fails", wrong)
    check(done.returncode == 1, "the run is not conformant", done.stdout[-2000:])


def generated_run(options, name):
    """The plugin's kernels in TensorFlow (load and kernels tiers), every report written."""
    base, files = reports(options.work, name)
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load,kernels"] + files)
    report = json.load(open(base + ".json"))
    results = {r["id"]: r for r in report["results"]}
    return done, report, results, base


def floor_cell(report):
    for op in report["op_coverage"]["ops"]:
        if op["op"] == "Floor":
            return op["cells"].get("float", {})
    return {}


def case_generated_defect(options):
    done, report, results, _ = generated_run(options, "generated_defect")
    check(done.returncode == 1, "a Floor that truncates fails the run", done.stdout[-2000:])
    floor = results.get("kernel.Floor.float.generated", {})
    check(floor.get("outcome") == "fail" and "Floor kernel" in floor.get("message", ""),
          "a generated case catches it, naming the Floor kernel", floor)
    failed = sorted(i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout"))
    check(failed == ["kernel.Floor.float.generated"], "nothing else fails", failed)
    causes = report["root_causes"]
    check(len(causes) == 1 and "kernel.Floor.float.generated" in json.dumps(causes),
          "one root cause", json.dumps(causes, indent=1)[:2000])
    check(floor_cell(report).get("state") == "failed", "the coverage cell is failed",
          floor_cell(report))
    kernels = report["installed_tensorflow"]["kernels"]
    check(kernels["cells"]["Floor"]["float"] == "disagrees", "TensorFlow's CPU disagrees",
          kernels["cells"].get("Floor"))


def case_generated_crash(options):
    done, report, results, _ = generated_run(options, "generated_crash")
    check(done.returncode == 1, "a Floor that dies on NaN fails the run", done.stdout[-2000:])
    floor = results.get("kernel.Floor.float.generated", {})
    check(floor.get("outcome") == "crash" and "special values" in floor.get("message", "")
          and "Floor kernel" in floor.get("message", ""),
          "the generated special-values case is named as the one the process died in", floor)
    bad = sorted(i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout"))
    check(bad == ["kernel.Floor.float.generated"], "nothing else fails", bad)
    check(len(report["root_causes"]) == 1, "one root cause",
          json.dumps(report["root_causes"], indent=1)[:2000])


def case_generated_correct(options):
    done, report, results, base = generated_run(options, "generated_correct")
    check(done.returncode == 0, "a correct Floor passes", done.stdout[-3000:])
    floor = results.get("kernel.Floor.float.generated", {})
    check(floor.get("outcome") == "pass", "its generated cases agree with TensorFlow's CPU", floor)
    check(floor_cell(report).get("state") == "generated", "JSON: the Floor float cell is generated",
          floor_cell(report))
    check(report["op_coverage"]["cell_counts"]["generated"] >= 1, "JSON: counted as generated")
    check(re.search(r"Floor\s+generated float", done.stdout) is not None,
          "console: the Floor row says generated", done.stdout[-3000:])
    html = open(base + ".html").read()
    check('class="cell generated"' in html, "HTML: a generated cell", "")
    junit = open(base + ".xml").read()
    check('classname="kernel.Floor.float" name="generated"' in junit, "JUnit: the generated check", "")
    check("generated cases: " in done.stdout, "console: the generated cases' line",
          done.stdout[-2000:])


def case_vendor_scenarios(options):
    """--scenarios folders run in TensorFlow too, and a cell they cover gets no generated cases."""
    base, files = reports(options.work, "vendor_scenarios")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load,kernels", "--scenarios", options.scenarios] + files)
    report = json.load(open(base + ".json"))
    results = {r["id"]: r for r in report["results"]}
    check(done.returncode == 1, "the truncating Floor fails the run", done.stdout[-2000:])
    in_tensorflow = sorted(i for i, r in results.items()
                           if i.endswith(".in_tensorflow") and r["outcome"] == "fail")
    check("kernel.Floor.float.random.in_tensorflow" in in_tensorflow,
          "the vendor's random Floor scenario ran in TensorFlow and its CPU disagrees "
          "(the reference plugin has no Floor: only TensorFlow can judge it)", in_tensorflow)
    check(all(i.startswith("kernel.Floor.float.") for i in in_tensorflow), "no other op",
          in_tensorflow)
    check("kernel.Floor.float.generated" in results,
          "a vendor scenario adds cases to the generated ones, never switches them off",
          sorted(results)[:5])


def case_vendor_scenario_keeps_generated(options):
    """A vendor's Floor scenario without a NaN leaves Floor(NaN) to the generated cases."""
    base, files = reports(options.work, "vendor_scenario_keeps_generated")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load,kernels", "--scenarios", options.scenarios] + files)
    report = json.load(open(base + ".json"))
    results = {r["id"]: r for r in report["results"]}
    check(done.returncode == 1, "a Floor that gives 0 for NaN fails the run", done.stdout[-2000:])
    literal = results.get("kernel.Floor.float.literal", {})
    check(literal.get("outcome") == "pass", "the vendor's own case passes (it has no NaN)", literal)
    generated = results.get("kernel.Floor.float.generated", {})
    check(generated.get("outcome") == "fail" and "special values" in generated.get("message", ""),
          "the generated special-values case catches it", generated)
    failed = sorted(i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout"))
    check(failed == ["kernel.Floor.float.generated"], "nothing else fails", failed)


def case_generated_cell(options):
    """One generated cell's verdict, where TensorFlow's CPU alone would be a wrong oracle."""
    done, _, results, _ = generated_run(options, "generated_cell")
    cell = results.get(options.cell, {})
    failed = sorted(i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout"))
    if options.expect_pass:
        check(done.returncode == 0, "the plugin passes", done.stdout[-2000:])
        check(cell.get("outcome") == "pass", f"{options.cell} passes", cell)
    else:
        check(done.returncode == 1, "the plugin fails the run", done.stdout[-2000:])
        check(failed == [options.cell], f"{options.cell} alone fails", failed)
    check(options.expect_text in cell.get("message", ""),
          f"its message says {options.expect_text!r}", cell)


def case_plugin_op_scenarios(options):
    """A scenario of the plugin's own op is no usage error with --tensorflow."""
    base, files = reports(options.work, "plugin_op_scenarios")
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow,
                   "--tier", "load,kernels", "--scenarios", options.scenarios] + files)
    check("unknown op" not in done.stderr, "no \"unknown op\" error", done.stderr[-2000:])
    check(done.returncode == 0, "the legal plugin passes", done.stdout[-2000:] + done.stderr[-1000:])
    report = json.load(open(base + ".json"))
    results = {r["id"]: r for r in report["results"]}
    literal = results.get("kernel.VendorScale.float.literal", {})
    check(literal.get("outcome") == "pass", "its literal case ran in the kernel tier", literal)
    in_tensorflow = [i for i in results if i.startswith("kernel.VendorScale.") and
                     i.endswith(".in_tensorflow")]
    check(not in_tensorflow, "no case of the plugin's own op is judged by TensorFlow's CPU",
          in_tensorflow)


def case_float_attr_varied(options):
    """Generated cases vary float attrs: LeakyRelu runs with alpha=0.1 besides its default."""
    done, report, results, _ = generated_run(options, "float_attr_varied")
    cell = results.get("kernel.LeakyRelu.float.generated", {})
    if options.expect_pass:
        check(done.returncode == 0, "a correct LeakyRelu passes", done.stdout[-2000:])
        check(cell.get("outcome") == "pass", "its generated cases, alpha=0.1 too, agree", cell)
        cases = report["installed_tensorflow"]["kernels"]
        check(cases["cells"].get("LeakyRelu", {}).get("float") == "generated",
              "TensorFlow's CPU agrees on every LeakyRelu case", cases["cells"].get("LeakyRelu"))
        return
    check(done.returncode == 1, "a LeakyRelu that ignores alpha fails the run", done.stdout[-2000:])
    check(cell.get("outcome") == "fail" and "alpha=0.1" in cell.get("message", ""),
          "the generated case with alpha=0.1 catches it", cell)
    failed = sorted(i for i, r in results.items() if r["outcome"] in ("fail", "crash", "timeout"))
    check(failed == ["kernel.LeakyRelu.float.generated"], "nothing else fails", failed)


def cpu_kernel_run(options, name):
    base, files = reports(options.work, name)
    done, _ = run([options.conformance, options.plugin, "--tensorflow", options.tensorflow]
                  + files)
    report = json.load(open(base + ".json"))
    kernels = report["installed_tensorflow"]["kernels"]
    check(kernels.get("cpu_kernel_plugin") is True and kernels["compared"] > 0,
          f"{kernels['compared']} cases ran its CPU kernels inside TensorFlow", kernels)
    return done, report, kernels


def case_cpu_kernel_plugin(options):
    done, report, kernels = cpu_kernel_run(options, "cpu_kernel_plugin")
    check(done.returncode == 0, "exit 0 with --tensorflow", done.stdout[-3000:])
    check(report["installed_tensorflow"]["agrees"], "the emulated and installed verdicts agree",
          report["installed_tensorflow"])
    passed = {(op["op"], dtype) for op in report["op_coverage"]["ops"]
              for dtype, cell in op["cells"].items() if cell["state"] == "passed"}
    judged = {(op, dtype): verdict for op, cells in kernels["cells"].items()
              for dtype, verdict in cells.items()}
    check(passed == {("Relu", "float"), ("AddV2", "float")},
          "the mock core's host device passed Relu and AddV2 on float", sorted(passed))
    check(all(judged.get(cell) == "agrees" for cell in passed) and not kernels["disagreements"],
          "each agrees with TensorFlow's default CPU kernels inside TensorFlow", judged)
    plain = report_without_tensorflow(options, "cpu_kernel_plugin_plain")
    check(plain.returncode == 0, "exit 0 without --tensorflow (the mock core alone)",
          plain.stdout[-2000:])


def case_cpu_kernel_defect(options):
    done, report, kernels = cpu_kernel_run(options, "cpu_kernel_defect")
    check(done.returncode == 1, "the leaky Relu fails the run", done.stdout[-2000:])
    cells = kernels["cells"]
    check(cells.get("Relu", {}).get("float") == "disagrees"
          and cells.get("AddV2", {}).get("float") == "agrees",
          "inside TensorFlow only Relu disagrees with TensorFlow's CPU", cells)
    causes = report["root_causes"]
    # A model graph with a Relu in it may disagree too: the same defect, so the same root cause.
    kernel_checks = [c for c in causes[0]["checks"] if c.startswith("kernel.")] if causes else []
    model_checks = [c for c in causes[0]["checks"] if c.startswith("model.")] if causes else []
    check(len(causes) == 1 and all(c.startswith("kernel.Relu.float.") for c in kernel_checks)
          and all(c.endswith(".installed") for c in model_checks)
          and len(kernel_checks) + len(model_checks) == len(causes[0]["checks"])
          and any(c.endswith(".in_tensorflow") for c in kernel_checks)
          and any(not c.endswith(".in_tensorflow") for c in kernel_checks),
          "one root cause: Relu, on the host device and inside TensorFlow alike", causes)


def report_without_tensorflow(options, name):
    _, files = reports(options.work, name)
    done, _ = run([options.conformance, options.plugin] + files)
    return done


def case_auto_none(options):
    empty_path = os.path.join(options.work, "no_python_here")
    os.makedirs(empty_path, exist_ok=True)
    env = dict(os.environ, PATH=empty_path)
    done, _ = run([options.conformance, options.plugin, "--tensorflow", "auto"], env=env)
    check(done.returncode == 2, "exit 2", done.stderr)
    check("--tensorflow auto: no installed TensorFlow found" in done.stderr, "says none was found",
          done.stderr)
    for interpreter in ("python3", "python"):
        check(f"{interpreter} -c \"import importlib.util as u, os, sys; s = u.find_spec('tensorflow')"
              in done.stderr and f"{interpreter} is not on PATH" in done.stderr,
              f"names what it tried with {interpreter}", done.stderr)


def case_not_a_dir(options):
    folder = os.path.join(options.work, "not_tensorflow")
    os.makedirs(folder, exist_ok=True)
    done, _ = run([options.conformance, options.plugin, "--tensorflow", folder])
    check(done.returncode == 2, "exit 2", done.stderr)
    check(os.path.join(folder, "libtensorflow_cc.so.2") in done.stderr, "names the file looked for",
          done.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--tensorflow", default="")
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--expect-release", default="")
    parser.add_argument("--scenarios", default="")
    parser.add_argument("--expect-pass", action="store_true")
    parser.add_argument("--cell", default="")
    parser.add_argument("--expect-text", default="")
    parser.add_argument("--work", required=True)
    options = parser.parse_args()
    os.makedirs(options.work, exist_ok=True)
    cases = {"loads": case_loads, "refused": case_refused, "release": case_release,
             "installed_layout": case_installed_layout,
             "auto_none": case_auto_none, "kernel_defect": case_kernel_defect, "not_a_dir": case_not_a_dir,
             "generated_defect": case_generated_defect, "generated_correct": case_generated_correct,
             "vendor_scenarios": case_vendor_scenarios,
             "vendor_scenario_keeps_generated": case_vendor_scenario_keeps_generated,
             "float_attr_varied": case_float_attr_varied, "generated_cell": case_generated_cell,
             "plugin_op_scenarios": case_plugin_op_scenarios, "generated_crash": case_generated_crash,
             "cpu_kernel_plugin": case_cpu_kernel_plugin, "cpu_kernel_defect": case_cpu_kernel_defect,
             "precision": case_precision, "cpu_kernel_generated": case_cpu_kernel_generated}
    if options.case in ("loads", "refused", "release", "installed_layout", "kernel_defect", "generated_defect",
                        "generated_correct", "vendor_scenarios", "generated_crash",
                        "vendor_scenario_keeps_generated", "float_attr_varied", "generated_cell",
                        "plugin_op_scenarios", "precision", "cpu_kernel_generated",
                        "cpu_kernel_plugin", "cpu_kernel_defect"):
        if not options.tensorflow:
            skip_or_fail("no TensorFlow configured (CONFORMANCE_TENSORFLOW_DIR / _2_15_DIR)")
        if not os.path.isdir(options.tensorflow):
            skip_or_fail(f"no TensorFlow at {options.tensorflow}")
    cases[options.case](options)


if __name__ == "__main__":
    main()
