"""The SP_* calls TensorFlow makes for one copy between two devices of one plugin.

usage: CALL_LOG_FILE=LOG CALL_LOG_TARGET=libreference_plugin.so|libmock_plugin.so \
       VENV/bin/python cross_device_copy_calls.py --plugin libcall_logging_plugin.so

Loads the call-logging plugin (tests/tensorflow_oracle/call_logging_plugin.cc, wrapping the
target) into the running TensorFlow, puts a tensor on device 0, then copies it to device 1 the
way consequence_runner.py does (EagerTensor._copy_to_device) and prints the calls logged between
the two, with the device each stream belongs to: the fact behind runtime.devices.cross_device_copy
(docs/tensorflow/calls.md, "Copies"). 2.15.1 refuses the reference plugin (its kernels import
TF_GetOutputPropertiesListSize), so there the target is the mock plugin (two devices, no
kernels: the tensor reaches device 0 as a copy from the host). Exit 1 when the copy did not
arrive bit for bit.
"""

import argparse
import os
import sys

import numpy as np


def logged(path):
    with open(path, encoding="utf-8", errors="replace") as log:
        return log.read().splitlines()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    args = parser.parse_args()
    log_path = os.environ["CALL_LOG_FILE"]
    import tensorflow as tf

    from tensorflow.python.framework import load_library

    load_library.load_pluggable_device_library(os.path.abspath(args.plugin))
    devices = [d.name for d in tf.config.list_logical_devices() if "CPU" not in d.name]
    print("TensorFlow", tf.__version__, "devices:", devices)
    if len(devices) < 2:
        print("fewer than two devices: nothing to copy between")
        return 1
    host = np.arange(1 << 10, dtype=np.float32)
    with tf.device(devices[0]):
        x = tf.identity(tf.constant(host))
    _ = x.numpy()
    if not x.device.endswith(devices[0].split("device:")[-1]):
        print("the tensor is on %s, not %s: nothing copied between the devices" % (
            x.device, devices[0]))
        return 1
    before = len(logged(log_path))
    y = x._copy_to_device(devices[1])
    arrived = y.numpy().tobytes() == host.tobytes()
    for line in logged(log_path)[before:]:
        print(line)
    print("copy %s -> %s: %s" % (devices[0], y.device, "bytes equal" if arrived else "WRONG"))
    return 0 if arrived else 1


if __name__ == "__main__":
    sys.exit(main())
