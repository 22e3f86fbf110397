#include "isolate/unit_token.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <system_error>

namespace conformance::isolate {

std::string NewUnitToken() {
  std::uint8_t bytes[16];
  std::size_t have = 0;
  while (have < sizeof(bytes)) {
    const ssize_t got = getrandom(bytes + have, sizeof(bytes) - have, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    have += static_cast<std::size_t>(got);
  }
  std::string token;
  token.reserve(2 * sizeof(bytes));
  for (const std::uint8_t byte : bytes) {
    char digits[3];
    std::snprintf(digits, sizeof(digits), "%02x", byte);
    token += digits;
  }
  return token;
}

}  // namespace conformance::isolate
