"""The stateful random ops' draw cases (random_draw_judge --cases) drawn by TensorFlow's own CPU
kernels, twice on one kernel instance (eager execution keeps one kernel per op and attrs, so the
second call is the next step of the same kernel), and judged by the suite's own judges
(random_draw_judge --judge): what harness/kernels/random_draws.h holds a plugin to must be what
TensorFlow's CPU gives.

usage: python random_draws_in_cpu.py --judge-tool BIN --work DIR

A dtype TensorFlow's CPU has no kernel for (Multinomial of int32, RandomGamma of bfloat16) is
reported and not judged; every op must have at least one dtype drawn. Exits with the judge's
status.

Two ops 2.21.0 refuses on every node (UNIMPLEMENTED: removed from its GraphDef version) are
drawn by their successors, which draw from the same distribution (STAND_INS): RandomPoisson as
RandomPoissonV2 with its rate dtype R the draws' dtype, StatefulStandardNormal as
StatefulStandardNormalV2 with the Philox algorithm (1). A state variable (StatefulStandardNormal's)
is made once and drawn from twice, so the second step starts where the first left it, as the
kernel tier runs it (random_units.cc).
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tf_cases  # noqa: E402


def poisson_as_v2(case):
    attrs = dict(case["attrs"], R=case["attrs"]["dtype"])
    return dict(case, op="RandomPoissonV2", attrs=attrs)


def normal_as_v2(case):
    algorithm = {"name": "algorithm", "dtype": "int64", "shape": [],
                 "hex": np.array(1, dtype=np.int64).tobytes().hex()}
    inputs = [case["inputs"][0], algorithm] + case["inputs"][1:]
    return dict(case, op="StatefulStandardNormalV2", inputs=inputs)


STAND_INS = {"RandomPoisson": poisson_as_v2, "StatefulStandardNormal": normal_as_v2}


def draw_twice(case):
    """Two steps of one kernel instance: [outputs, outputs], or ("error", code, text)."""
    import tensorflow as tf
    from tensorflow.python.eager import context, execute
    from tensorflow.python.framework import op_def_registry

    case = STAND_INS.get(case["op"], lambda c: c)(case)
    if not any(t.get("variable") for t in case["inputs"]):
        steps = []
        for _ in range(2):
            outcome = tf_cases.run_case(case, "/CPU:0")
            if outcome[0] != "ok":
                return outcome
            steps.append(outcome[1])
        return steps
    attrs, _ = tf_cases.attr_values(case, op_def_registry.get(case["op"]))
    try:
        with tf.device("/CPU:0"):
            inputs = [tf.Variable(tf_cases.decode(t)).handle if t.get("variable")
                      else tf.constant(tf_cases.decode(t)) for t in case["inputs"]]
            return [[o.numpy() for o in execute.execute(
                case["op"], len(case["outputs"]), inputs=inputs, attrs=tuple(attrs),
                ctx=context.context())] for _ in range(2)]
    except tf.errors.OpError as error:
        return ("error", error.error_code, error.message)


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
        outcome = draw_twice(case)
        if isinstance(outcome, tuple):
            draws[case["id"]] = {"error": "%s: %s" % (
                tf_cases.code_name(outcome[1]),
                tf_cases.kernel_message(outcome[2]).splitlines()[0][:160])}
        else:
            first, second = [[tensor_json(value, spec["dtype"])
                              for value, spec in zip(step, case["outputs"])] for step in outcome]
            draws[case["id"]] = {"first": first, "second": second}
    with open(draws_path, "w") as f:
        json.dump(draws, f)
    sys.stdout.flush()
    return subprocess.run([args.judge_tool, "--judge", draws_path]).returncode


if __name__ == "__main__":
    sys.exit(main())
