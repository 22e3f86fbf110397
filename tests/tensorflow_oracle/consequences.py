"""The consequence oracle: what real TensorFlow does with every plugin the project builds, next
to the suite's verdict on it.

usage: python consequences.py --lib-dir build/default/lib
           --conformance build/default/bin/plugin_conformance
           --dump-tool build/default/bin/kernel_case_dump
           [--record-dump-tool build/default/bin/record_case_dump]
           --tensorflow VENV/lib/pythonX.Y/site-packages/tensorflow [--tensorflow ...]
           (--write docs/tensorflow/consequences.md | --check docs/tensorflow/consequences.md)
           [--jobs 2] [--runs 5] [--stall 15] [--only GLOB]... [--answers FILE]

Per plugin and TensorFlow release (a --tensorflow package folder; its virtual environment's
Python runs consequence_runner.py, which forks one child per plugin and runs the standard
workload there, stopping at its first finding), TensorFlow's outcome is one of
  correct       every copy, kernel and function gave the right values
  wrong values  a result differed (the first named)
  error         TensorFlow raised an error (the first named)
  growing memory  TensorFlow's memory in use grew with every step of a loop that keeps nothing
  nothing registered  TensorFlow loaded the library and has no device, kernel, optimizer or
                profiler of it (kernels counted in its registry before and after loading)
  crash         the child died of a signal, or exited on its own, after loading
  hang          one call into TensorFlow silent for --stall seconds (a slow plugin whose
                calls keep returning is not one), or still running after --limit, a backstop
  refused       TensorFlow did not load the plugin: an error, or its abort, while loading
and plugin_conformance's verdict on the same file (default tiers, --json; the release's profile:
newest for 2.21 and later, tf2.19 for 2.19 to 2.20, tf2.18 for 2.18, tf2.17 for 2.17, tf2.16 for 2.16,
tf2.15 for 2.15) is its exit code and root causes. Where TensorFlow
refused the plugin, the suite runs its load tier only: the question is whether it loads. They
agree when
  correct                             <-> exit 0 (conformant, warnings allowed)
  wrong values, error, growing memory, nothing registered, crash, hang
                                      <-> exit 1 with at least one root cause
  correct with no device listed        <-> exit 0, or exit 5 (no device: the suite's device
                                          tiers did not run, nothing failed), or exit 1 with
                                          every root cause on get_device_count (why TensorFlow
                                          lists no device: a negative, unwritten or failed count)
  refused                             <-> exit 3 (the suite could not load it either), or
                                          exit 1 with the suite saying TensorFlow refuses it
TensorFlow races where the suite holds streams: a plugin with an ordering defect may compute
right on one run and wrong on the next, while the suite fails it every time. So a plugin
TensorFlow ran correctly and the suite fails gets --runs - 1 more runs of the workload (in one
more child, the same inputs each time), and the first that is not correct is its outcome; a
defect no run shows stays `correct`, a disagreement.

--write writes the document; --check recomputes it and fails (exit 1) on any false pass (the
suite conformant where TensorFlow was not correct) and on a plugin of the table gone unmeasured;
the open disagreements (TensorFlow correct in every run, the suite not conformant) are printed.
Only the releases given are checked.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN, END = "<!-- consequences:begin -->", "<!-- consequences:end -->"
# The build's plugin families this oracle covers (folders under lib/), and the single plugins.
# load_defects and generations are left out: they are about loading, which
# tests/tensorflow/agreement_test.cc already holds against TensorFlow's own verdict.
FAMILIES = ["runtime_defects", "kernel_defects", "model_defects", "legal_patterns",
            "deallocate_timing", "graph_profiler_defects", "cpu_kernel_plugins",
            "installed_deaths", "npd_plugin", "scenario_defects"]
# (row name, file under lib/): plugins with no family folder of their own.
SINGLES = [("reference_plugin", "libreference_plugin.so"),
           ("example_plugin", "libexample_plugin.so"),
           # tests/no_device's fixture: loads, reports 0 devices (TensorFlow lists none)
           ("no_device/device_count_zero", "load_defects/device_count_zero.so"),
           ("mock_plugin", "libmock_plugin.so")]
# libmock_plugin.so under each configuration of tests/mocks/mock_faults.yaml (MOCK_PLUGIN_CONFIG,
# read in SE_InitPlugin): one row per distinct configuration, named after its first entry.
MOCK_FAULTS = os.path.join(HERE, "..", "mocks", "mock_faults.yaml")
# Families whose plugins misbehave only inside the installed TensorFlow (tests/installed_deaths):
# the suite's verdict on them is the one it gives with that TensorFlow (--tensorflow), the mode
# those fixtures exist for; without it the suite cannot see TensorFlow at all.
WITH_INSTALLED_TENSORFLOW = {"installed_deaths"}
# The environment some plugins load with, in TensorFlow and in the suite alike: the slow AddV2
# fixture at 1 s a call, as tests/installed_deaths' own test runs it: its workload took 356 s on
# 2.21.0 so, most of it in AddV2 calls; the fixture's default, 4.5 s a call, multiplies that.
PLUGIN_ENV = {"installed_deaths/addv2_slow_in_tensorflow": {"SLOW_KERNEL_MS": "1000"}}
COLUMNS = ["plugin", "release", "TensorFlow", "what TensorFlow showed", "our verdict",
           "root causes", "agree"]
EXIT_WORDS = {0: "conformant", 1: "not conformant", 3: "not loaded", 5: "no device"}


class Plugin:
    """One row's plugin: its name in the table, its file, and the environment it loads with."""

    def __init__(self, name, path, env=None):
        self.name, self.path, self.env = name, path, env or {}
        self.family = name.split("/")[0]


def mock_configurations():
    """[(name, MOCK_PLUGIN_CONFIG)] of tests/mocks/mock_faults.yaml, each configuration once."""
    seen, found = set(), []
    with open(MOCK_FAULTS) as f:
        for match in re.finditer(r'name: ([A-Za-z0-9_]+), mock: "((?:[^"\\]|\\.)*)"', f.read()):
            name, config = match.group(1), match.group(2).replace('\\"', '"')
            if config not in seen:
                seen.add(config)
                found.append((name, config))
    return sorted(found)


def discover(lib_dir, only):
    """[Plugin]: the single plugins, every family's plugins, then the mock's configurations,
    each group sorted; a file this build lacks has no row, which --check reports as gone."""
    found = [Plugin(name, os.path.join(lib_dir, file)) for name, file in SINGLES
             if os.path.exists(os.path.join(lib_dir, file))]
    for family in FAMILIES:
        folder = os.path.join(lib_dir, family)
        for entry in sorted(os.listdir(folder) if os.path.isdir(folder) else []):
            if entry.endswith(".so"):
                name = entry[:-3][3:] if entry.startswith("lib") else entry[:-3]
                row = "%s/%s" % (family, name)
                found.append(Plugin(row, os.path.join(folder, entry), PLUGIN_ENV.get(row)))
    mock = os.path.join(lib_dir, "libmock_plugin.so")
    if os.path.exists(mock):
        found += [Plugin("mock_plugin/" + name, mock, {"MOCK_PLUGIN_CONFIG": config})
                  for name, config in mock_configurations()]
    return [plugin for plugin in found if selected(plugin.name, only)]


def sampled(plugins, every):
    """The fixed sample --sample runs inside TensorFlow: in each family (the name up to its
    first /), the first plugin and every `every`-th after it, in discover()'s order."""
    chosen, position = set(), {}
    for plugin in plugins:
        index = position[plugin.family] = position.get(plugin.family, -1) + 1
        if index % every == 0:
            chosen.add(plugin.name)
    return chosen


def selected(name, only):
    """True when no --only was given, or when the plugin's name matches one of its globs."""
    return not only or any(fnmatch.fnmatch(name, glob) for glob in only)


def python_of(tensorflow_dir):
    """The Python of the virtual environment holding <venv>/lib/pythonX.Y/site-packages/tensorflow
    (as with_tensorflow.sh finds it)."""
    return os.path.join(os.path.abspath(os.path.join(tensorflow_dir, *[".."] * 4)), "bin", "python")


def profile_args(version):
    """The suite's profile for a TensorFlow release (specs/profiles: newest is 2.21, tf2.19 2.19
    to 2.20, then one profile a release)."""
    minor = int(version.split(".")[1])
    if minor >= 21:
        return []
    if minor >= 19:
        return ["--profile", "tf2.19"]
    if 15 <= minor <= 18:
        return ["--profile", "tf2.%d" % minor]
    raise SystemExit("no profile of the suite is measured against TensorFlow %s" % version)


class Runner:
    """One consequence_runner.py (one TensorFlow release); run() is safe from several threads."""

    def __init__(self, tensorflow_dir, cases, scratch, stall, limit, answers, record_dump_tool):
        self.tensorflow_dir = tensorflow_dir
        python = python_of(tensorflow_dir)
        self.scratch = scratch
        self.log = open(os.path.join(scratch, "runner-%d.log" % id(self)), "w")
        # TMPDIR: autograph writes a file per traced function, and a child ends with os._exit,
        # before Python would remove it; the scratch folder goes at the end.
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", TMPDIR=scratch)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        self.process = subprocess.Popen(
            [python, os.path.join(HERE, "consequence_runner.py"), "--cases", cases,
             "--stall", str(stall), "--limit", str(limit)] +
            (["--record-dump-tool", record_dump_tool] if record_dump_tool else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        self.answers = open(answers, "a") if answers else None
        ready = self.process.stdout.readline()
        if not ready:
            raise SystemExit("consequence_runner.py with %s did not start (log: %s)" % (
                python, self.log.name))
        self.version = json.loads(ready)["ready"]
        self.lock, self.waiting, self.next_id = threading.Lock(), {}, 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            answer = json.loads(line)
            with self.lock:
                slot = self.waiting.pop(answer["id"])
                if self.answers:
                    self.answers.write(json.dumps(dict(answer, plugin=slot["plugin"])) + "\n")
            slot["answer"] = answer
            slot["event"].set()

    def run(self, plugin, runs, env):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
            slot = self.waiting[ident] = {"event": threading.Event(), "plugin": plugin}
            log = os.path.join(self.scratch, "child-%d-%d.log" % (id(self), ident))
            self.process.stdin.write(json.dumps({"id": ident, "plugin": plugin, "log": log,
                                                  "runs": runs, "env": env}) + "\n")
            self.process.stdin.flush()
        slot["event"].wait()
        with open(log, errors="replace") as f:
            return slot["answer"], f.read()

    def close(self):
        self.process.stdin.close()
        self.process.wait()
        self.log.close()
        if self.answers:
            self.answers.close()


# TF_Code names (tensorflow/c/tf_status.h), to find a status in TensorFlow's fatal message.
CODES = ("CANCELLED|UNKNOWN|INVALID_ARGUMENT|DEADLINE_EXCEEDED|NOT_FOUND|ALREADY_EXISTS|"
         "PERMISSION_DENIED|RESOURCE_EXHAUSTED|FAILED_PRECONDITION|ABORTED|OUT_OF_RANGE|"
         "UNIMPLEMENTED|INTERNAL|UNAVAILABLE|DATA_LOSS|UNAUTHENTICATED")


def fatal_message(log):
    """The status in TensorFlow's fatal log line (LOG(FATAL) or a failed CHECK, "F0000 ..." in
    2.21, "... F tensorflow/..." in 2.15) before it aborts, else the line's text."""
    for line in log.splitlines():
        match = re.search(r"(?:^F\d{4} |\d: F ).*?\] (.*)", line)
        if match:
            status = re.search(r"\b((?:%s): .*?)\)?\s*$" % CODES, match.group(1))
            return (status.group(1) if status else match.group(1))[:300]
    return None


def classify(answer, log):
    """(outcome, detail, run) of one child: run is the run of the workload it ended in."""
    events = answer["events"]
    for event in events:
        if "script_error" in event:
            raise SystemExit("consequence_runner.py failed (a bug of the script, not of the "
                             "plugin):\n" + event["script_error"])
    steps = [e["at"] for e in events if "at" in e]
    at = steps[-1] if steps else "start"
    run = max([e["run"] for e in events if "run" in e], default=1)
    refused = [e["refused"] for e in events if "refused" in e]
    if refused:
        return "refused", refused[0], run
    if answer["killed"]:
        return "hang", "%s, in %s" % (answer["killed"], at), run
    if answer["signal"] is not None or not any("done" in e for e in events):
        how = (signal.Signals(answer["signal"]).name if answer["signal"] is not None
               else "exit code %s" % answer["exit"])
        fatal = fatal_message(log)
        if at == "load":  # TensorFlow turns a load error into an abort
            return "refused", "%s while loading%s" % (how, ": " + fatal if fatal else ""), run
        return "crash", "%s in %s%s" % (how, at, ": " + fatal if fatal else ""), run
    findings = [e["finding"] for e in events if "finding" in e]  # the workload's first only
    if findings:
        return findings[0]["kind"], "%s: %s" % (findings[0]["where"], findings[0]["detail"]), run
    first_run = events[:next((i for i, e in enumerate(events) if e.get("run") == 2), None)]
    right = sum(e.get("at", "load") != "load" for e in first_run)
    if no_device(answer):
        return "correct", "no device listed; %d items right on the CPU" % right, run
    return "correct", "%d items right" % right, run


def no_device(answer):
    """TensorFlow loaded the plugin and listed no device of its own."""
    return any("device_type" in e and e["device_type"] is None for e in answer["events"])


def run_suite(conformance, plugin, runner, load_only, scratch):
    """plugin_conformance's verdict on the plugin: exit code, root causes (`call`: problem),
    warnings, and whether it says TensorFlow loads the plugin."""
    report = os.path.join(scratch, "suite-%d.json" % threading.get_ident())
    command = [conformance, plugin.path, "--json", report] + profile_args(runner.version)
    if plugin.family in WITH_INSTALLED_TENSORFLOW:
        command += ["--tensorflow", runner.tensorflow_dir]
    if load_only:
        command += ["--tier", "load"]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=600, env=dict(os.environ, **plugin.env))
    suite = {"code": done.returncode, "causes": [], "warnings": 0, "tensorflow_loads": None}
    if os.path.exists(report):
        with open(report) as f:
            data = json.load(f)
        suite["causes"] = [("`%s`: " % c["call"] if c["call"] else "") + c["problem"]
                           for c in data.get("root_causes", [])]
        suite["warnings"] = data.get("counts", {}).get("warning", 0)
        suite["tensorflow_loads"] = data.get("tensorflow_verdict", {}).get("loads")
        # With --tensorflow, the installed TensorFlow's own verdict: it refused the plugin or
        # its process died of it while loading.
        if data.get("installed_tensorflow", {}).get("verdict") in ("refuses", "dies"):
            suite["tensorflow_loads"] = False
        os.unlink(report)
    return suite


def agrees(outcome, suite, without_device=False):
    """The rule of the module's docstring."""
    code, causes = suite["code"], suite["causes"]
    if outcome == "refused":
        # Not loaded by the suite either, or loaded and judged as TensorFlow refusing it.
        return code == 3 or (code == 1 and suite["tensorflow_loads"] is False)
    if outcome == "correct":
        # A plugin TensorFlow lists no device for: exit 5 says the same (loaded, no device, the
        # device tiers not run, nothing failed).
        # A plugin TensorFlow lists no device for because its device count is wrong (negative,
        # not written, or an error status: TensorFlow counts no device, measured): the suite's
        # failure names that very callback, get_device_count, and no other.
        count_blamed = bool(causes) and all(c.startswith("`get_device_count`:") for c in causes)
        return code == 0 or (without_device and (code == 5 or (code == 1 and count_blamed)))
    return code == 1 and bool(causes)


def short_paths(text, lib_dir):
    """The build folder's lib/ as "lib" (messages name plugins by their full path)."""
    for spelling in {os.path.realpath(lib_dir), os.path.abspath(lib_dir)}:
        text = text.replace(spelling, "lib")
    return text


def cell(text):
    return str(text).replace("|", "/").replace("\n", " ").strip()


def measure(plugin, runner, args, scratch, gates, committed):
    """One row: TensorFlow's outcome (repeated where the rule says) and the suite's verdict. With
    `committed` (a row of the document), TensorFlow is not run: its columns are the committed
    ones, and the suite's verdict is measured again."""
    if committed:
        outcome, detail, seconds = committed["TensorFlow"], committed["what TensorFlow showed"], 0
        without_device = detail.startswith("no device listed")
    else:
        with gates["tensorflow"]:
            answer, log = runner.run(plugin.path, 1, plugin.env)
        outcome, detail, _ = classify(answer, log)
        seconds = answer["seconds"]
        without_device = no_device(answer)
    started = time.monotonic()
    with gates["suite"]:
        suite = run_suite(args.conformance, plugin, runner, outcome == "refused", scratch)
    suite_seconds = time.monotonic() - started
    if outcome == "correct" and suite["code"] == 1 and args.runs > 1 and not committed:
        # The other runs in one more child, which repeats the workload after loading.
        with gates["tensorflow"]:
            answer, log = runner.run(plugin.path, args.runs - 1, plugin.env)
        outcome, detail, run = classify(answer, log)
        seconds += answer["seconds"]
        detail += (", in all %d runs" % args.runs if outcome == "correct"
                   else " (run %d of %d)" % (run + 1, args.runs))
    verdict = EXIT_WORDS.get(suite["code"], "exit %d" % suite["code"])
    if outcome == "refused" and suite["tensorflow_loads"] is False:
        verdict += ", TensorFlow refuses"
    if suite["code"] == 0 and suite["warnings"]:
        verdict += ", %d warning%s" % (suite["warnings"], "s" if suite["warnings"] > 1 else "")
    if outcome == "refused":
        verdict += " (load tier)"
    return {"plugin": plugin.name, "release": runner.version, "TensorFlow": outcome,
            "what TensorFlow showed": detail if committed else cell(short_paths(detail,
                                                                                args.lib_dir)),
            "our verdict": verdict,
            "root causes": cell(short_paths("; ".join(suite["causes"]), args.lib_dir)) or "-",
            "agree": "yes" if agrees(outcome, suite, without_device) else "no",
            "tf_seconds": seconds, "suite_seconds": suite_seconds,
            "measured": not committed}


def render(rows, versions, command):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(row[c] for c in COLUMNS) + " |" for row in rows]
    totals = []
    for version in versions:
        of = [r for r in rows if r["release"] == version]
        totals.append("TensorFlow %s: %d plugins, %d agree, %d disagree" % (
            version, len(of), sum(r["agree"] == "yes" for r in of),
            sum(r["agree"] == "no" for r in of)))
    return INTRO.format(command=command) + "\n".join(
        [BEGIN, "; ".join(totals) + ".", ""] + lines + [END]) + "\n"


INTRO = """# What TensorFlow does with each plugin, and what the suite says

Measured, not written: every plugin the project builds runs one standard workload inside real
TensorFlow, each in a child process of its own with a timeout, and `plugin_conformance PLUGIN
--json F` (default tiers, the release's profile: newest for 2.21.0, `tf2.15` for 2.15.1) judges
the same file. The plugins: the reference plugin, the example plugin (`examples/addv2_plugin`),
`tests/no_device`'s fixture (`load_defects/device_count_zero`), the mock plugin
(`libmock_plugin.so`) as it is and under each distinct `MOCK_PLUGIN_CONFIG` of
`tests/mocks/mock_faults.yaml` (set in the child before TensorFlow loads it, and for the suite's
run), and every plugin of the families `runtime_defects`, `kernel_defects`, `model_defects`,
`legal_patterns`, `deallocate_timing`, `graph_profiler_defects` (NPD, graph-optimizer and
profiler fixtures), `cpu_kernel_plugins`, `installed_deaths`, `npd_plugin` and
`scenario_defects` under `build/<preset>/lib`, none sampled. The `installed_deaths` plugins
misbehave only inside an installed TensorFlow, which is what `--tensorflow` is for: the suite
judges them with `--tensorflow` set to the release's package folder. `load_defects` and
`generations` are left out: they are about loading, whose verdict
`tests/tensorflow/agreement_test.cc` already holds against TensorFlow's own.

The workload (`tests/tensorflow_oracle/consequence_runner.py`), on the plugin's device with soft
placement off, stopping at the first finding: load the plugin (`load_pluggable_device_library`)
and list its device (a plugin TensorFlow then has nothing of, no device, no kernel in its
registry, no optimizer or profiler, is `nothing registered`); copy 10 dtypes in three size classes (0 bytes, under 64 bytes, 256 Ki
elements) to the device and back, bit for bit, and assign and read a `tf.Variable` there; for a
plugin exporting `TF_InitGraph`, the graph tier's graphs as `tf.function`s on the device (an
Identity chain fetched at its end and its middle, one with a kept node), which grappler's
meta-optimizer hands to the plugin's optimizer: each must give its input back, and TensorFlow
must not log that it could not parse the optimizer's output (`PluggableGraphOptimizer failed:
INVALID_ARGUMENT: Unparseable tensorflow.GraphDef proto`, after which it runs the graph without
the pass; a status the plugin returns itself is the plugin declining the graph, not counted);
for a plugin exporting `TF_InitProfiler`, `tf.profiler.experimental.start` and `stop` around an
Identity on the device, and when the saved trace holds no plane but TensorFlow's own, the
plugin's profiler driven once more through ctypes: non-empty bytes that do not parse as an
XSpace (the wheel's `xplane_pb2`) mean TensorFlow silently dropped the device's trace (`wrong
values`; a profiler that collects nothing stays correct); run
every kernel TensorFlow holds for the device type on the kernel scenarios' seeded cases against
TensorFlow's CPU (`reference_in_tensorflow.py`'s cases, the kernel tier's comparison; a zero of
the wrong sign counts where IEEE arithmetic defines it, as in the kernel tier); a `tf.function`
on the device (a residual block, `relu(x + y) + (x + y)`, where it has AddV2 and Relu; Identity
and Reshape where it has no AddV2); a `tf.function` returning a 1 MiB float constant placed on
the device (TensorFlow writes a device constant into the pinned buffer `host_memory_allocate`
gave it, then copies it to the device from there); a copy between its two devices, again of
a tensor behind another one kept alive (BFC gives it an address inside its region: a
`memcpy_dtod` that copies from the region's start instead,
`scenario_defects/dtod_ignores_src_offset`, delivers another tensor's values there), and 16
tensors on each of them kept alive together and read back; each
float elementwise kernel of the device the kernel scenarios cover (Relu, Relu6, Elu, Tanh, ...)
feeding AddV2 on 256 Ki elements, eagerly and as a tf.function, with no host synchronisation
between the two; and
`lifetimes_in_tensorflow.py`'s AddV2/Relu runs (2 per size instead of 20) and tf.function chain;
then, with float AddV2, what a long-running program does to device memory: AddV2 into the
256-byte holes between live tensors (each neighbour keeps its values), 50 AddV2 on fresh inputs
with every result dropped (`get_memory_info`'s memory in use must not grow), and an AddV2 broadcast to a
4 GiB result, which no 1 GiB device holds (ResourceExhaustedError is right); last, every kernel
of the device whose op no kernel scenario covers (the kernels step runs none of its cases) on the
recorded oracle's cases of its cell (`specs/ops/record`, inputs made again by `record_case_dump`;
`recorded_in_tensorflow.py`), its values against the recorded values of TensorFlow's CPU by the
kernel tier's rule and the case's tolerance; only values count there (a case the record has no
values for, or the device refuses, is not judged). After all runs, once: a copy onto the device
and back in a `tf.compat.v1` Session whose options set `per_process_gpu_memory_fraction` 0.5
(2.21.0 reads it from `pluggable_device_options`, 2.15.1 from `gpu_options`), in a process forked
before the plugin was loaded anywhere (the option applies to a device's first allocator only):
TensorFlow then sizes the device from the `*total` of `device_memory_usage` instead of its
`*free`, so an unwritten total is a memory limit of 0 and every allocation fails there
(`memory_fraction.py`; not counted among the items). A device runs the parts it has kernels for
(most `runtime_defects` plugins register none). TensorFlow raises on the 4 GiB AddV2 after
10.0 s with the BFC allocator (its retry loop) and at once without it, on 2.21.0 and 2.15.1
alike; 2.15.1 still skips it, as it did when a run of 170 s there was taken for TensorFlow's
(it was the example plugin's: 16 GiB of host offset tables built before asking for its output).

A plugin TensorFlow lists no device for (`no_device/device_count_zero`, the CPU kernel plugins,
`npd_plugin/host_npd_plugin`) runs instead, on TensorFlow's CPU device: AddV2, Sub, Mul, Relu,
Relu6, Floor, Neg, Abs, Square, Tanh and MatMul against NumPy (halves and integers on both sides
of zero, signed zeros, seeded normals); AddV2, Relu and Floor on every size of 1 to 64 elements,
20 rounds, results kept alive next to other tensors (a kernel writing past its output corrupts
the heap there: `cpu_kernel_plugins/addv2_writes_past_output` dies of glibc's `free(): invalid
pointer`); the residual block as a `tf.function`; then the graph and profiler steps above on the
CPU. A CPU kernel plugin's kernels, of a priority above TensorFlow's own, are the ones that run.

TensorFlow's outcome: `correct`, `wrong values` (the first wrong result), `error` (the first
error TensorFlow raised), `growing memory` (memory in use grew with a loop that keeps nothing),
`crash` (a signal, or an exit of the plugin's own, after loading),
`hang` (one call into TensorFlow silent for 15 s; a plugin whose calls all return, however
slowly, is not one), `nothing registered` (loaded, and nothing of it in TensorFlow) or
`refused` (an error, or TensorFlow's abort, while loading).
They agree when `correct` goes with exit 0 (warnings allowed), or, where TensorFlow listed no
device of the plugin, with exit 5 (the suite's "no device": its device tiers did not run and
nothing failed) or with exit 1 whose every root cause is `get_device_count` (a negative,
unwritten or failed count, which TensorFlow takes for no device: the user's device is missing);
`wrong values`, `error`, `growing memory`, `nothing registered`, `crash` and `hang` with exit 1
and a root cause; `refused` with exit 3, or exit 1 with the suite saying TensorFlow refuses the
plugin (for a plugin TensorFlow refused the suite runs its load tier only). TensorFlow races where the suite holds streams, so a plugin TensorFlow ran correctly but
the suite fails runs the workload 4 more times: an ordering defect counts as shown when any run
shows it, and a defect no run shows is a disagreement.

TensorFlow 2.15.1 refuses every plugin here that wraps the reference plugin: each opens
`libreference_plugin.so` in `SE_InitPlugin`, whose graph-optimizer imports
(`TF_GetOutputPropertiesListSize` first) 2.15.1 defines only in `libtensorflow_cc.so.2`, out of
reach of a library that links `libtensorflow_framework.so.2` (2.15.1 loads its libraries
RTLD_LOCAL); so that dlopen fails, the wrapper's `SE_InitPlugin` returns NOT_FOUND, and
TensorFlow aborts. The suite's `tf2.15` profile says the same: it refuses the wrapper's dlopen
as 2.15.1's glibc does (`harness/loader/dlopen_gate.h`), so the status `SE_InitPlugin` returns
is the verdict, and `load.opened_libraries` names the library and the symbols, in the same root
cause at `SE_InitPlugin`. The reference plugin itself is
refused for the same imports (`load.library.imports`). Refused on 2.15.1 for this reason: the
reference plugin and every plugin of `runtime_defects`, `kernel_defects`, `model_defects` and
`deallocate_timing` (their rows compare loading only); of `legal_patterns`, only `tf25_headers`
is refused, for its own reason (built against TensorFlow 2.5 headers, it leaves `host_callback`
NULL: FAILED_PRECONDITION), and the others run the workload. Measured on both wheels: a library that also links
`libtensorflow_cc.so.2` (DT_NEEDED, which the loader matches by soname to the copy `import
tensorflow` loaded: no RPATH needed) binds `TF_GetOutputPropertiesListSize` in 2.15.1 and
2.21.0 alike; the reference plugin does not link it, because the `tf2.15` profile models a
plugin linking the framework only (`specs/profiles/README.md`, "Not modelled").

Defects TensorFlow 2.21 was measured never to reach (`docs/tensorflow/calls.md`, "What
TensorFlow 2.21 never reaches") are warnings under the newest profile
(`harness/model/tensorflow_reach.h`), so their plugins agree as `correct` / conformant; under
the `tf2.15` profile so are those blaming a callback 2.15.1 was measured never to call ("What
TensorFlow 2.15 never reaches": the mock plugin's `host_callback`, `mem_zero`, `memset`,
`get_stream_status`, `wait_for_event` and `sync_memcpy_*` faults). Among
them, measured for this table: `kernel_defects/compute_ahead` (its AddV2 reads its inputs at
once; TensorFlow runs a kernel only once its inputs' copies completed, and the workload's chains
found no other kernel of that device to put in front of it) and
`runtime_defects/stream_dependency_noop`, given the reference plugin's kernels (without any, a
copy has nothing to wait for): an eager read-back calls `synchronize_all_activity` before its
`create_stream_dependency` and `memcpy_dtoh`, so a dependency that does not wait shows nowhere
(381 items right in 5 of 5 runs). `graph_profiler_defects/profiler_stop_before_start` (its
stop dereferences what only start creates): 2.21.0 and 2.15.1 stop a profiler only after its
own start returned OK, so it is a warning under the `tf2.15` profile too. `runtime_defects/host_alloc_small` (64 bytes whatever
`host_memory_allocate` is asked for) is reached, measured with a wiretap that fills the pinned
memory with a canary: TensorFlow asks for one 2 MiB pinned buffer (4 MiB more once a constant
needs it) and writes into it only a graph constant placed on the device, whole and from offset
0, before `memcpy_htod` copies it from there; eager copies, variables and an Identity/Reshape
function write at most 8 bytes of it. The 1 MiB constant then lands past the 64 bytes: glibc's
heap-corruption abort or SIGSEGV in every run. `runtime_defects/off_tensorflow_paths_exit` agrees since the
models tier holds its stream with a copy (`harness/runtime/copy_hold.h`) and waits as
TensorFlow waits, never with `host_callback` or `block_host_until_done`.
The scenario tier's failures go through the same facts once they name their callback: a
read-back still wrong when every copy and fill is right on whole buffers is put down to the
scenario's own fill or device copy done again with its step's arguments
(`harness/scenario/replay_write.cc`), so `scenario_defects/mem_zero_short_odd` (`mem_zero`),
`memset_one_extra` (`memset`) and `sync_dtod_swapped` (`sync_memcpy_dtod`) name the callback,
which TensorFlow 2.21 never calls; `scenario_defects/beyond_capacity_succeeds` is a plugin
with the BFC allocator, whose single region TensorFlow sizes from the free memory the device
reports, never beyond it.

Every disagreement is open work: the issue's rule is zero. The CTest tests
`tensorflow.consequences.*` (one per part of the table: `runtime_defects`, `kernel_defects`,
`others`) check the table against 2.21.0 with `--check --sample 8`: TensorFlow runs on a fixed
sample (each family's first plugin and every 8th after it, in the table's order), the suite on
every plugin of the part. The mock plugin's configurations and `installed_deaths` are left to
`--write` (their suite runs took 636 s, `stalled_stream` alone 342 s, and a TensorFlow start
each). They fail on a false pass (the suite
conformant where TensorFlow was not correct, measured now or in the table: the verdict that
lies), on a row whose suite verdict is no longer the table's, and on a plugin missing from the
table or gone from the build; they print the open disagreements, and cannot fail on those
without failing at random, since TensorFlow's own races decide whether a run reaches an
ordering defect. The false passes measured and not fixed yet are listed, each with its measured
reason, in `tests/tensorflow_oracle/consequences_open.txt`: `--check` prints a listed row
instead of failing on it, and fails on an entry none of whose rows is a false pass any more.
Regenerate the whole table, every row inside both releases (19 minutes on two cores shared with
other builds; build folder `build/default`; `--only GLOB` re-measures those rows and keeps the
others; the installed-death rows need `plugin_conformance_tf_driver` built):

```sh
{command}
```

"""

COMMAND = """build/default/tensorflow/2.21.0/bin/python tests/tensorflow_oracle/consequences.py \\
  --lib-dir build/default/lib --conformance build/default/bin/plugin_conformance \\
  --dump-tool build/default/bin/kernel_case_dump \\
  --record-dump-tool build/default/bin/record_case_dump \\
  --tensorflow build/default/tensorflow/2.21.0/lib/python3.11/site-packages/tensorflow \\
  --tensorflow build/default/tensorflow/2.15.1/lib/python3.11/site-packages/tensorflow \\
  --write docs/tensorflow/consequences.md"""


def committed_rows(path):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no %s ... %s table" % (path, BEGIN, END))
    rows = []
    for line in text.split(BEGIN)[1].split(END)[0].splitlines():
        if not line.startswith("| ") or line.startswith("| plugin |"):
            continue
        values = [v.strip() for v in line.strip().strip("|").split(" | ")]
        rows.append(dict(zip(COLUMNS, values)))
    return rows


def false_pass(row):
    """The suite passes a plugin TensorFlow does not run correctly: the verdict that lies."""
    return row["agree"] != "yes" and row["TensorFlow"] != "correct"


# False passes measured and not fixed yet, each with its reason: --check prints them instead of
# failing on them, and fails on an entry that no longer matches a false pass (fixed: remove it).
OPEN_FALSE_PASSES = os.path.join(HERE, "consequences_open.txt")


def open_false_passes():
    """[(plugin glob, release, reason)] of OPEN_FALSE_PASSES (lines "GLOB RELEASE REASON")."""
    entries = []
    if os.path.exists(OPEN_FALSE_PASSES):
        with open(OPEN_FALSE_PASSES) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    glob, release, reason = line.split(None, 2)
                    entries.append((glob, release, reason.strip()))
    return entries


def listed(row, entries):
    """The first entry of OPEN_FALSE_PASSES naming the row, else None."""
    return next((e for e in entries if fnmatch.fnmatch(row["plugin"], e[0]) and
                 row["release"] == e[1]), None)


def verdict_of(text):
    """The suite's verdict without its count of warnings, which varies between runs of one
    plugin where a warning is about timing (runtime_defects/block_host_until_done_early: 22,
    then 24)."""
    return re.sub(r", \d+ warnings?", "", text)


def check(rows, committed, only):
    """Problems: every false pass (TensorFlow showed wrong values, an error, a crash, a hang or
    a refusal, and the suite called the plugin conformant, TensorFlow's side measured now or
    committed), every row whose suite verdict is no longer the committed one, and every plugin
    of the committed table gone unmeasured or missing from it. The other disagreements
    (TensorFlow correct in every run, the suite not conformant: a defect this workload never
    reaches) are printed; TensorFlow's own races decide whether a run reaches an ordering
    defect, so they cannot fail a test without making it flaky."""
    entries = open_false_passes()
    problems = ["FALSE PASS %s (TensorFlow %s): TensorFlow %s (%s), suite %s" % (
        r["plugin"], r["release"], r["TensorFlow"], r["what TensorFlow showed"], r["our verdict"])
        for r in rows if false_pass(r) and not listed(r, entries)]
    for r in rows:
        if false_pass(r) and listed(r, entries):
            print("OPEN FALSE PASS %s (TensorFlow %s): TensorFlow %s (%s), suite %s; listed: %s" % (
                r["plugin"], r["release"], r["TensorFlow"], r["what TensorFlow showed"],
                r["our verdict"], listed(r, entries)[2]))
    for glob, release, _ in entries:
        named = [r for r in rows if fnmatch.fnmatch(r["plugin"], glob) and r["release"] == release]
        if named and not any(false_pass(r) for r in named):
            problems.append("FIXED %s (TensorFlow %s): listed in %s as a false pass, and none is "
                            "left: remove the entry" % (glob, release, OPEN_FALSE_PASSES))
    for r in rows:
        if r["agree"] != "yes" and not false_pass(r):
            print("OPEN %s (TensorFlow %s): TensorFlow correct (%s), suite %s [%s]" % (
                r["plugin"], r["release"], r["what TensorFlow showed"], r["our verdict"],
                r["root causes"]))
    releases = {r["release"] for r in rows}
    measured = {(r["plugin"], r["release"]) for r in rows}
    by_key = {(old["plugin"], old["release"]): old for old in committed}
    for r in rows:
        old = by_key.get((r["plugin"], r["release"]))
        if old is None:
            problems.append("NEW %s (TensorFlow %s): not in the table; regenerate it" % (
                r["plugin"], r["release"]))
        elif verdict_of(old["our verdict"]) != verdict_of(r["our verdict"]):
            problems.append("VERDICT CHANGED %s (TensorFlow %s): the table says %s, the suite "
                            "now %s; regenerate the table" % (
                                r["plugin"], r["release"], old["our verdict"], r["our verdict"]))
    for old in committed:
        if old["release"] in releases and selected(old["plugin"], only) \
                and (old["plugin"], old["release"]) not in measured:
            problems.append("GONE %s (TensorFlow %s): a plugin of the table was not measured" % (
                old["plugin"], old["release"]))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib-dir", required=True)
    parser.add_argument("--conformance", required=True)
    parser.add_argument("--dump-tool", required=True)
    parser.add_argument("--record-dump-tool",
                        help="record_case_dump: the workload also runs the kernels no kernel "
                             "scenario covers on the recorded oracle's cases")
    parser.add_argument("--tensorflow", action="append", required=True,
                        help="a TensorFlow package folder of a virtual environment")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write")
    mode.add_argument("--check")
    parser.add_argument("--jobs", type=int, default=2,
                        help="TensorFlow children at a time (and suite runs at a time)")
    parser.add_argument("--runs", type=int, default=5,
                        help="runs before a plugin the suite fails is called correct")
    # The longest item of a working plugin is TensorFlow's allocator retrying a request it
    # cannot serve (10 s, kernel_defects/absurd_output_size); everything else takes under 3 s.
    parser.add_argument("--stall", type=float, default=15,
                        help="seconds without progress that make a hang")
    # A backstop only: a child is a hang when one call stays silent for --stall seconds, not
    # for the time the whole workload takes (the slow AddV2 fixture needs 356 s on 2.21.0).
    parser.add_argument("--limit", type=float, default=1800,
                        help="seconds a child may run at all, its calls returning or not")
    parser.add_argument("--answers", help="keep every child's events here (JSON lines, with "
                                           "times: where the workload spends its time)")
    parser.add_argument("--only", action="append",
                        help="only the plugins whose name matches this glob (repeatable: any of "
                             "them); with --write, the other rows are kept from the document")
    parser.add_argument("--sample", type=int, default=1,
                        help="with --check: run TensorFlow only on the first plugin of each "
                             "family and every N-th after it; the other rows take TensorFlow's "
                             "columns from the document and measure the suite's verdict again")
    args = parser.parse_args()
    if args.write and args.sample != 1:
        parser.error("--write measures every row inside TensorFlow: no --sample")
    started = time.monotonic()
    plugins = discover(args.lib_dir, args.only)
    document = args.check or args.write
    committed = committed_rows(document) if os.path.exists(document) else []
    by_key = {(old["plugin"], old["release"]): old for old in committed}
    live = sampled(plugins, args.sample)

    with tempfile.TemporaryDirectory(prefix="consequences-") as scratch:
        cases = os.path.join(scratch, "cases.json")
        with open(cases, "w") as f:
            subprocess.run([args.dump_tool], check=True, stdout=f)
        runners = [Runner(d, cases, scratch, args.stall, args.limit, args.answers,
                          args.record_dump_tool)
                   for d in args.tensorflow]
        tasks = []
        for runner in runners:
            for plugin in plugins:
                old = by_key.get((plugin.name, runner.version))
                # Not in the sample: TensorFlow's columns from the document (a row it lacks is
                # measured, and then reported as new).
                tasks.append((plugin, runner, old if plugin.name not in live else None))
        rows = [None] * len(tasks)
        # --jobs TensorFlow children and --jobs suite runs at a time, each task waiting for its
        # kind's turn: a hanging child or a suite run waiting out its timeouts leaves the CPU to
        # the other kind instead of holding a shared slot idle.
        gates = {"tensorflow": threading.Semaphore(args.jobs),
                 "suite": threading.Semaphore(args.jobs)}
        with concurrent.futures.ThreadPoolExecutor(2 * args.jobs) as pool:
            futures = {pool.submit(measure, plugin, runner, args, scratch, gates, old): index
                       for index, (plugin, runner, old) in enumerate(tasks)}
            for future in concurrent.futures.as_completed(futures):
                row = rows[futures[future]] = future.result()
                print("%-45s %-7s %-12s %-30s %-3s (TensorFlow %s, suite %.1f s)" % (
                    row["plugin"], row["release"], row["TensorFlow"], row["our verdict"],
                    row["agree"], "%.1f s" % row["tf_seconds"] if row["measured"]
                    else "from the table", row["suite_seconds"]), flush=True)
        for runner in runners:
            runner.close()

    versions = [runner.version for runner in runners]
    print("measured %d rows in %.0f s, %d of them inside TensorFlow (TensorFlow children %.0f s, "
          "suite %.0f s)" % (len(rows), time.monotonic() - started,
                              sum(r["measured"] for r in rows),
                              sum(r["tf_seconds"] for r in rows),
                              sum(r["suite_seconds"] for r in rows)))
    if args.write:
        # --only: the rows of the other plugins (and of releases not given) stay as they were.
        keys = {(r["plugin"], r["release"]) for r in rows}
        kept = [dict(old) for old in committed if (old["plugin"], old["release"]) not in keys] \
            if args.only else []
        order = {(p.name, v): i for i, (v, p) in enumerate(
            (v, p) for v in versions for p in discover(args.lib_dir, None))}
        merged = sorted(rows + kept, key=lambda r: order.get((r["plugin"], r["release"]),
                                                              len(order)))
        with open(args.write, "w") as f:
            f.write(render(merged, sorted({r["release"] for r in merged}, reverse=True),
                           COMMAND))
        print("wrote " + args.write)
        return 0
    problems = check(rows, committed, args.only)
    for problem in problems:
        print(problem)
    print("%d rows, %d problems" % (len(rows), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
