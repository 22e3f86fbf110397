// plugin_conformance_tf_driver: the driver as an executable of its own, which
// plugin_conformance --tensorflow starts (driver_process.h). TensorFlow cannot be loaded into
// plugin_conformance itself, even in a child: the executable exports the mock core's TF_*
// functions, which would take the place of TensorFlow's own. Usage: driver_main.h.
#include "installed_tensorflow/driver_main.h"

int main(int argc, char** argv) { return tensorflow_driver::RunDriver(argc, argv, 1); }
