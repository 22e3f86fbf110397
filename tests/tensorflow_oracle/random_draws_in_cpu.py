"""The stateful random ops' draw cases (random_draw_judge --cases) drawn by TensorFlow's own CPU
kernels, twice on one kernel instance (eager execution keeps one kernel per op and attrs, so the
second call is the next step of the same kernel), and judged by the suite's own judges
(random_draw_judge --judge): what harness/kernels/random_draws.h holds a plugin to must be what
TensorFlow's CPU gives.

usage: python random_draws_in_cpu.py --judge-tool BIN --work DIR

A dtype TensorFlow's CPU has no kernel for (Multinomial of int32, RandomGamma of bfloat16) is
reported and not judged; every op must have at least one dtype drawn. Exits with the judge's
status.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tf_cases  # noqa: E402


def tensor_json(array, dtype):
    return {"dtype": dtype, "shape": list(array.shape), "hex": array.tobytes().hex()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--judge-tool", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cases_path = os.path.join(args.work, "draw_cases.json")
    draws_path = os.path.join(args.work, "draws.json")
    subprocess.run([args.judge_tool, "--cases", cases_path], check=True)
    with open(cases_path) as f:
        cases = json.load(f)["cases"]
    draws = {}
    for case in cases:
        steps = []
        for _ in range(2):
            outcome = tf_cases.run_case(case, "/CPU:0")
            if outcome[0] != "ok":
                break
            steps.append([tensor_json(value, spec["dtype"])
                          for value, spec in zip(outcome[1], case["outputs"])])
        if len(steps) < 2:
            draws[case["id"]] = {"error": "%s: %s" % (
                tf_cases.code_name(outcome[1]),
                tf_cases.kernel_message(outcome[2]).splitlines()[0][:160])}
        else:
            draws[case["id"]] = {"first": steps[0], "second": steps[1]}
    with open(draws_path, "w") as f:
        json.dump(draws, f)
    sys.stdout.flush()
    return subprocess.run([args.judge_tool, "--judge", draws_path]).returncode


if __name__ == "__main__":
    sys.exit(main())
