#include "copy_call.h"

namespace conformance::bench {

void IssueCopy(CopyOperands& c, Direction direction, bool async) {
  switch (direction) {
    case Direction::kHtoD:
      if (async) {
        c.se.memcpy_htod(c.device, c.stream, &c.a, c.host, c.size, c.status);
      } else {
        c.se.sync_memcpy_htod(c.device, &c.a, c.host, c.size, c.status);
      }
      return;
    case Direction::kDtoH:
      if (async) {
        c.se.memcpy_dtoh(c.device, c.stream, c.host, &c.a, c.size, c.status);
      } else {
        c.se.sync_memcpy_dtoh(c.device, c.host, &c.a, c.size, c.status);
      }
      return;
    case Direction::kDtoD:
      if (async) {
        c.se.memcpy_dtod(c.device, c.stream, &c.a, &c.b, c.size, c.status);
      } else {
        c.se.sync_memcpy_dtod(c.device, &c.a, &c.b, c.size, c.status);
      }
      return;
  }
}

const char* CopyCallbackName(Direction direction, bool async) {
  switch (direction) {
    case Direction::kHtoD: return async ? "memcpy_htod" : "sync_memcpy_htod";
    case Direction::kDtoH: return async ? "memcpy_dtoh" : "sync_memcpy_dtoh";
    case Direction::kDtoD: return async ? "memcpy_dtod" : "sync_memcpy_dtod";
  }
  return "memcpy";
}

}  // namespace conformance::bench
