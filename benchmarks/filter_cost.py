"""What a set of checks costs a plugin_conformance run: the CPU time (user + system, the whole
process tree) and wall time of the default run against the same run with those checks filtered
out, interleaved so that both meet the same machine load. CPU time is the comparable figure on a
busy machine.

usage: python3 benchmarks/filter_cost.py TOOL PLUGIN FILTER [RUNS]
  e.g. benchmarks/filter_cost.py build/default/bin/plugin_conformance \
       build/default/lib/libreference_plugin.so \
       '-runtime.memory.deallocate.queued_work:kernel.*.inputs_released_at_enqueue' 7
"""

import resource
import statistics
import subprocess
import sys
import time


def measure(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    tool, plugin, checks = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) == 5 else 7
    full, without = [], []
    for _ in range(runs):
        full.append(measure([tool, plugin]))
        without.append(measure([tool, plugin, "--filter", checks]))
    for name, samples in (("default run", full), ("without those checks", without)):
        print("%-22s CPU median %.2f s, wall median %.2f s (%d runs)" % (
            name, statistics.median(c for c, _ in samples),
            statistics.median(w for _, w in samples), runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
