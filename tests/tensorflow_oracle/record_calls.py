"""Which SP_* callbacks and entry points real TensorFlow calls, and with which argument patterns.

usage: python record_calls.py --wrapper libcall_logging_plugin.so --target libreference_plugin.so
           (--cases DUMP.json | --dump-tool kernel_case_dump)
           [--write docs/tensorflow/calls.md] [--check docs/tensorflow/calls.md]

Runs reference_in_tensorflow.py's workload (load, every dtype's round trip, every registered
kernel against the CPU, slices and splits) in a child Python with call_logging_plugin in front
of the target plugin, then summarises the call log: per callback how often it was called and
the patterns of its arguments. --write replaces the generated table of the file; --check fails
(exit 1) when TensorFlow made a call the committed table does not list.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN, END = "<!-- calls:begin -->", "<!-- calls:end -->"

# Every call the wrapper can log: the entry points and every SP_* callback, in header order.
ALL_CALLS = [
    "SE_InitPlugin", "TFNPD_InitPlugin", "TF_InitKernel", "TF_InitGraph", "TF_InitProfiler",
    "get_device_count", "create_device", "destroy_device", "create_device_fns",
    "destroy_device_fns", "create_stream_executor", "destroy_stream_executor",
    "create_timer_fns", "destroy_timer_fns", "destroy_platform", "destroy_platform_fns",
    "get_numa_node", "get_memory_bandwidth", "get_gflops", "nanoseconds",
    "allocate", "deallocate", "host_memory_allocate", "host_memory_deallocate",
    "unified_memory_allocate", "unified_memory_deallocate", "get_allocator_stats",
    "device_memory_usage", "create_stream", "destroy_stream", "create_stream_dependency",
    "get_stream_status", "create_event", "destroy_event", "get_event_status", "record_event",
    "wait_for_event", "create_timer", "destroy_timer", "start_timer", "stop_timer",
    "memcpy_dtoh", "memcpy_htod", "memcpy_dtod", "sync_memcpy_dtoh", "sync_memcpy_htod",
    "sync_memcpy_dtod", "block_host_for_event", "block_host_until_done",
    "synchronize_all_activity", "mem_zero", "memset", "memset32", "host_callback",
]
SIZE_KEYS = {"size"}
# Keys whose values are summarised as kinds (base / interior / unknown) rather than listed.
MEMORY_KEYS = {"dst", "src", "target"}
IGNORED_KEYS = {"stream"}


def run_workload(args, log_path):
    env = dict(os.environ, CALL_LOG_FILE=log_path, CALL_LOG_TARGET=os.path.abspath(args.target))
    command = [sys.executable, os.path.join(HERE, "reference_in_tensorflow.py"),
               "--plugin", os.path.abspath(args.wrapper)]
    command += ["--cases", args.cases] if args.cases else ["--dump-tool", args.dump_tool]
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    tail = "\n".join(done.stdout.splitlines()[-15:])
    return done.returncode, tail


def memory_kind(value, size):
    """"interior@0+64:128/806354944" -> "interior@0, view = size" (device 0's memory, at an
    offset, SP_DeviceMemoryBase.size equal to the copy's size) and the like."""
    kind, _, sizes = value.partition(":")
    kind = kind.split("+")[0]
    if not sizes or size is None:
        return kind
    view = int(sizes.split("/")[0])
    relation = "=" if view == size else (">" if view > size else "<")
    return "%s, view %s size" % (kind, relation)


def summarise(log_path):
    calls = collections.OrderedDict((name, {"count": 0, "keys": collections.defaultdict(
        collections.Counter), "sizes": []}) for name in ALL_CALLS)
    with open(log_path) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            name = fields[0].split(".")[0]
            if name not in calls:
                calls[name] = {"count": 0, "keys": collections.defaultdict(collections.Counter),
                               "sizes": []}
            entry = calls[name]
            values = dict(field.partition("=")[::2] for field in fields[1:])
            if fields[0].endswith(".done"):  # the second line of a call: only its outcome
                values = {k: v for k, v in values.items() if k == "status"}
            else:
                entry["count"] += 1
            size = int(values["size"]) if "size" in values else None
            for key, value in values.items():
                if key in IGNORED_KEYS:
                    continue
                if key in SIZE_KEYS:
                    entry["sizes"].append(size)
                elif key in MEMORY_KEYS:
                    entry["keys"][key][memory_kind(value, size)] += 1
                else:
                    entry["keys"][key][value] += 1
    return calls


def patterns(entry):
    parts = []
    sizes = entry["sizes"]
    if sizes:
        zero = sum(1 for s in sizes if s == 0)
        nonzero = [s for s in sizes if s]
        text = "size 0: %d" % zero
        if nonzero:
            text += "; size %d..%d" % (min(nonzero), max(nonzero))
        parts.append(text)
    for key, counter in sorted(entry["keys"].items()):
        shown = ", ".join("%s x%d" % (v, n) for v, n in sorted(counter.items()))
        parts.append("%s: %s" % (key, shown))
    return "; ".join(parts)


def table(calls, version):
    lines = [BEGIN, "",
             "Measured with TensorFlow %s. `count` varies from run to run for polled calls; the "
             "test compares only which calls appear." % version, "",
             "| call | count | argument patterns |", "|---|---|---|"]
    for name, entry in calls.items():
        if entry["count"]:
            lines.append("| `%s` | %d | %s |" % (name, entry["count"], patterns(entry)))
    never = [name for name, entry in calls.items() if not entry["count"]]
    lines += ["", "Never called in this workload: " + ", ".join("`%s`" % n for n in never) + ".",
              "", END]
    return "\n".join(lines)


def committed_calls(path):
    with open(path) as f:
        text = f.read()
    section = text[text.index(BEGIN):text.index(END)]
    return set(re.findall(r"^\| `([A-Za-z_0-9]+)` \|", section, re.M))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wrapper", required=True)
    parser.add_argument("--target", required=True)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--cases")
    source.add_argument("--dump-tool")
    parser.add_argument("--write")
    parser.add_argument("--check")
    parser.add_argument("--log", help="keep the raw call log here")
    args = parser.parse_args()

    import tensorflow as tf

    log_path = args.log or tempfile.mkstemp(prefix="calls.", suffix=".log")[1]
    open(log_path, "w").close()
    code, tail = run_workload(args, log_path)
    print(tail)
    if code != 0:
        print("FAIL: the workload failed under the wrapper (exit %d)" % code)
        return 1
    calls = summarise(log_path)
    generated = table(calls, tf.__version__)
    print(generated)
    seen = {name for name, entry in calls.items() if entry["count"]}
    if args.write:
        with open(args.write) as f:
            text = f.read()
        start, end = text.index(BEGIN), text.index(END) + len(END)
        with open(args.write, "w") as f:
            f.write(text[:start] + generated + text[end:])
    if args.check:
        listed = committed_calls(args.check)
        new = sorted(seen - listed)
        missing = sorted(listed - seen)
        if missing:
            print("note: listed but not called this time: " + ", ".join(missing))
        if new:
            print("FAIL: TensorFlow called %s, which %s does not list" % (
                ", ".join(new), args.check))
            return 1
        print("every call TensorFlow made is listed in " + args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
