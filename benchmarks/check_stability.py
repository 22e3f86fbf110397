"""Same plugin, same verdict, check by check: runs plugin_conformance RUNS times on every fixture
plugin of the named lib/ folders (two at a time, so runs overlap as CI's do) and prints every
check whose outcome, failing call or problem is not the same on every run, and every plugin
whose root causes vary. benchmarks/repeat_verdicts.sh asks whether each fixture's test passes
every time; this asks whether each check of the report says the same thing every time.

  python3 benchmarks/check_stability.py FOLDER[,FOLDER...] RUNS [plugin_conformance args...]
  e.g. python3 benchmarks/check_stability.py runtime_defects,scenario_defects 10 --tier runtime

BUILD (environment; default build/default) is the build whose bin/ and lib/ are used.
"""
import collections
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile


def one_run(build, plugin, args, scratch, index):
    report = os.path.join(scratch, "%s.%d.json" % (os.path.basename(plugin), index))
    env = dict(os.environ, ASAN_OPTIONS="allocator_may_return_null=1")
    subprocess.run([os.path.join(build, "bin", "plugin_conformance"), plugin, "--seed", "7",
                    "--json", report] + args, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, timeout=600, check=False)
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return plugin, None
    os.remove(report)
    checks = {}
    for result in data["results"]:
        details = result.get("details", {})
        checks[result["id"]] = (result["outcome"], details.get("failing_call"),
                                details.get("problem"))
    causes = tuple(sorted((c.get("call"), c.get("problem")) for c in data["root_causes"]))
    return plugin, (checks, causes)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    build = os.environ.get("BUILD", "build/default")
    plugins = [p for folder in sys.argv[1].split(",")
               for p in sorted(glob.glob(os.path.join(build, "lib", folder, "*.so")))]
    runs, args = int(sys.argv[2]), sys.argv[3:]
    seen = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [(build, p, args, scratch, i) for p in plugins for i in range(runs)]
        for plugin, outcome in pool.map(lambda job: one_run(*job), jobs):
            seen[plugin].append(outcome)
    varying = 0
    for plugin, outcomes in seen.items():
        name = os.path.basename(plugin)
        if any(o is None for o in outcomes):
            print("%s: no report on %d of %d runs" % (name, outcomes.count(None), runs))
            varying += 1
            continue
        causes = collections.Counter(o[1] for o in outcomes)
        if len(causes) > 1:
            print("%s: root causes vary: %s" % (name, dict(causes)))
            varying += 1
        for check in sorted(set().union(*(o[0] for o in outcomes))):
            said = collections.Counter(o[0].get(check) for o in outcomes)
            if len(said) > 1:
                print("%s %s: %s" % (name, check, dict(said)))
                varying += 1
    print("%d plugins, %d runs each: %d varying" % (len(seen), runs, varying))
    return 0


if __name__ == "__main__":
    sys.exit(main())
