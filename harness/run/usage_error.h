#pragma once
// Errors the user can fix by changing the command line, the environment or an input file.
// The CLI maps them to exit code 2; everything else that escapes is an internal error (4).
#include <stdexcept>
#include <string>

namespace conformance {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace conformance
