// op_list_dump RELEASE OUT: writes the serialized OpList the mock core hands plugins under a
// profile emulating RELEASE (ops::SerializeOpList of its registry) to OUT, for
// compare_op_lists.py to check against TensorFlow's own TF_GetAllOpList.
#include <cstdio>
#include <fstream>
#include <string>

#include "ops/op_list_proto.h"
#include "ops/registry.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: op_list_dump RELEASE OUT\n");
    return 2;
  }
  const conformance::ops::OpRegistry* registry = conformance::ops::FindOpRegistry(argv[1]);
  if (registry == nullptr) {
    std::fprintf(stderr, "no op registry of TensorFlow %s is embedded\n", argv[1]);
    return 2;
  }
  const std::string list = conformance::ops::SerializeOpList(*registry);
  std::ofstream(argv[2], std::ios::binary) << list;
  return 0;
}
