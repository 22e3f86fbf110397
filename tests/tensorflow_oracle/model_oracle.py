"""The model oracle: every built-in model (conformance/models) run node by node on TensorFlow's
own CPU kernels, against the reference plugin's outputs (model_dump), step by step.

usage: python model_oracle.py --models DUMP.json [--verbose]
   or: python model_oracle.py --dump-tool build/default/bin/model_dump [--reference SO] [...]

Each node is the op through tf.raw_ops with the node's attrs (TensorFlow infers the type attrs
from the inputs and adds the defaults, as for a graph node). Variables are TensorFlow's own
(tf.Variable on the CPU with the dumped initial values): a node's DT_RESOURCE argument gets the
variable's handle, any other its value (ReadVariableOp) read at the start of the step, or again
after a node of the step updated it (as the models tier reads it), and a variable among the
model's outputs is read after the step, so the optimizer step is TensorFlow's own
ResourceApplyGradientDescent. A model agrees when every step's outputs are within the
model's tolerance of the reference plugin's (the models tier's rule, tf_cases.compare). Exits 1
when a model disagrees.
"""

import argparse
import inspect
import json
import subprocess
import sys

import tf_cases


def load_models(args):
    if args.models:
        with open(args.models) as f:
            return json.load(f)
    command = [args.dump_tool] + (["--reference", args.reference] if args.reference else [])
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def attr_value(value):
    (kind, item), = value.items()
    if kind in ("s", "i", "f", "b", "list_i", "list_s"):
        return item
    raise ValueError("an attr of a kind this script cannot pass: %s" % kind)


def run_model(model):
    """The model's outputs per step on TensorFlow's CPU: a list of lists of numpy arrays."""
    import tensorflow as tf

    with tf.device("/CPU:0"):
        variables = {v["name"]: tf.Variable(tf_cases.decode(v["value"]))
                     for v in model["variables"]}
        results = []
        for step in model["steps"]:
            tensors = {name: tf.constant(tf_cases.decode(t))
                       for name, t in zip(model["inputs"], step["inputs"])}
            for name, variable in variables.items():
                tensors[name] = variable.read_value()  # ReadVariableOp, start of the step
            updated = set()  # variables a node of this step updated since they were last read
            for node in model["nodes"]:
                function = getattr(tf.raw_ops, node["op"])
                # tf.raw_ops takes keywords, the op's inputs first in their order (a few are
                # renamed there: Mean's reduction_indices is `axis`), then its attrs.
                arguments = list(inspect.signature(function).parameters)
                kwargs = {attr: attr_value(v) for attr, v in node["attrs"].items()}
                for arg, name, resource in zip(arguments, node["inputs"], node["resource"]):
                    if not resource and name in updated:  # ReadVariableOp after the update
                        tensors[name] = variables[name].read_value()
                        updated.discard(name)
                    kwargs[arg] = variables[name].handle if resource else tensors[name]
                out = function(**kwargs)
                updated.update(name for name, resource in zip(node["inputs"], node["resource"])
                               if resource)
                if len(node["outputs"]) == 1:
                    out = [out]
                for name, tensor in zip(node["outputs"], out or []):
                    tensors[name] = tensor
            results.append([variables[name].read_value().numpy() if name in variables
                            else tensors[name].numpy() for name in model["outputs"]])
    return results


def main():
    parser = argparse.ArgumentParser()
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--models")
    source.add_argument("--dump-tool")
    parser.add_argument("--reference", help="the plugin --dump-tool runs the models on (default: "
                        "the reference plugin); the oracle's own test gives it a defective one")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    dump = load_models(args)
    import tensorflow as tf

    print("TensorFlow %s, %d models, seed %s" % (tf.__version__, len(dump["models"]),
                                                 dump["seed"]))
    disagreements = 0
    for model in dump["models"]:
        label = "model.%s.%s" % (model["model"], model["dtype"])
        if "unavailable" in model:
            print("FAIL %s: %s" % (label, model["unavailable"]))
            disagreements += 1
            continue
        actual = run_model(model)
        problem = None
        for s, (step, outputs) in enumerate(zip(model["steps"], actual)):
            for name, want, got in zip(model["outputs"], step["outputs"], outputs):
                why = tf_cases.compare(tf_cases.decode(want), got, model["dtype"],
                                       model["tolerance"])
                if why and problem is None:
                    problem = "step %d, output '%s': %s" % (s + 1, name, why)
        if problem:
            disagreements += 1
            print("DISAGREE %s: the reference plugin vs TensorFlow's CPU kernels: %s"
                  % (label, problem))
        else:
            nodes = len(model["nodes"])
            print("agree    %s (%d nodes, %d steps, %d variables)"
                  % (label, nodes, len(model["steps"]), len(model["variables"])))
    print("%d of %d models agree" % (len(dump["models"]) - disagreements, len(dump["models"])))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
