#pragma once
// The release of an installed `tensorflow` package read from its pip metadata, without starting
// TensorFlow: plugin_conformance --tensorflow plans its run (the profile, the kernel cases of that
// release's op definitions, the selection and its errors) before TensorFlow runs anything.
#include <optional>
#include <string>

namespace tensorflow_driver {

// "2.21.0" from the `*.dist-info` folder beside the package folder `dir` whose top_level.txt
// names `tensorflow` (tensorflow, tensorflow-cpu, tf-nightly, a `pip --target` layout alike);
// the folder's parent is also looked at after symlinks are resolved. nullopt when there is none:
// the caller then asks the driver (`--version`).
std::optional<std::string> ReleaseFromPackageMetadata(const std::string& dir);

}  // namespace tensorflow_driver
