"""The built-in models as graphs in the installed TensorFlow (tf_driver --model-graphs,
harness/installed_tensorflow/model_graphs.h): each runs through a TF_Session with the plugin and
in a second child without it, and the driver says whether they agree.

usage: model_graphs_test.py --driver TF_DRIVER --tensorflow DIR --model-dump MODEL_DUMP
                            --case CASE --plugin PLUGIN

Cases:
  agrees            every model the graph path builds agrees with TensorFlow's own kernels, the
                    plugin's kernels ran on its device, and nothing counts as the plugin's rewrite
  forward_in_place  the model defect that writes a shared input in place: mlp_residual (the one
                    model with a tensor of two consumers) disagrees at step 1, output 'probs';
                    every other model agrees
Exit 77 (skipped) when DIR is empty, a failure instead when CI is set.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def skip_or_fail(reason):
    if os.environ.get("CI"):
        print("FAIL (CI is set, so the TensorFlow tests must run): " + reason)
        return 1
    print("SKIPPED: " + reason)
    return 77


def drive(args, models_path):
    out = subprocess.run([args.driver, "--tensorflow", args.tensorflow, "--model-graphs",
                          models_path, args.plugin], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser()
    for option in ("--driver", "--tensorflow", "--model-dump", "--case", "--plugin"):
        parser.add_argument(option, required=option != "--tensorflow", default="")
    args = parser.parse_args()
    if not args.tensorflow:
        return skip_or_fail("the TensorFlow release is not configured")
    with tempfile.TemporaryDirectory() as work:
        models_path = os.path.join(work, "models.json")
        subprocess.run([args.model_dump, models_path], check=True)
        result = drive(args, models_path)
    problems = []
    graphs = result.get("model_graphs", [])
    ran = [m for m in graphs if "agree" in m]
    # The variable-free models: every one but the optimizer models, which the graph path does
    # not build.
    with_variables = ("mlp_sgd_step", "mlp_sgd_two_steps_per_execution")
    if len(ran) < 5:
        problems.append("only %d models ran as graphs: %s" % (len(ran), json.dumps(graphs)[:2000]))
    for model in graphs:
        if model["model"] in with_variables:
            if "not_run" not in model["plugin"]:
                problems.append("%s should say why it was not run" % model["model"])
            continue
        device = model["plugin"].get("device", "")
        if "CPU" in device or not model["plugin"].get("ran_ops", {}).get("MatMul"):
            problems.append("%s: the plugin's MatMul did not run on its device: %s"
                            % (model["model"], json.dumps(model["plugin"])))
        if model.get("rewritten"):
            problems.append("%s: the plugin rewrote nothing, yet %s" % (model["model"],
                                                                       model["rewritten"]))
        should_disagree = args.case == "forward_in_place" and model["model"] == "mlp_residual"
        if should_disagree:
            if model.get("agree") is not False or not model.get("difference", "").startswith(
                    "step 1, output 'probs'"):
                problems.append("mlp_residual should disagree at step 1, output 'probs': %s"
                                % json.dumps(model))
        elif model.get("agree") is not True:
            problems.append("%s should agree: %s" % (model["model"], json.dumps(model)[:2000]))
    for problem in problems:
        print("FAILED: " + problem)
    print("%d models, %d problems" % (len(graphs), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
