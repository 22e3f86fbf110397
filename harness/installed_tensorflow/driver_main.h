#pragma once
// The driver's command line, shared by tests/tensorflow/tf_driver and plugin_conformance
// --tensorflow (which runs it in a child process of its own, never in the parent):
//
//   ... --tensorflow DIR [--timeout-ms N] [--co-load OTHER.so] PLUGIN.so
//   ... --tensorflow DIR [--timeout-ms N] --batch < requests.jsonl
//
// Arguments are read from argv[first_argument]; the process re-executes itself once (same argv)
// with the wheel's folders on LD_LIBRARY_PATH. Returns the exit code: 0, or 2 for a usage error
// or a TensorFlow that cannot be loaded.
namespace tensorflow_driver {

int RunDriver(int argc, char** argv, int first_argument);

}  // namespace tensorflow_driver
