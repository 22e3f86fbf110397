// tf_driver: loads PluggableDevice plugins into real TensorFlow (the installed wheel, through
// its C API) and prints, per plugin, one JSON object saying what TensorFlow did. The driver is
// harness/installed_tensorflow (plugin_conformance --tensorflow runs the same code); usage and
// schema: its README.md.
#include "installed_tensorflow/driver_main.h"

int main(int argc, char** argv) { return tensorflow_driver::RunDriver(argc, argv, 1); }
