#include "runtime/stream_hold.h"

namespace conformance::runtime {

StreamHold HoldStream(Stream& stream, std::chrono::milliseconds waiting_streak,
                      std::chrono::milliseconds limit) {
  auto finished = std::make_shared<std::atomic<bool>>(false);
  auto gate = std::make_shared<StreamGate>(waiting_streak, limit);
  auto ticket = stream.HostCallback([finished, gate] {
    gate->Hold();
    finished->store(true);
    return HostCallbackOutcome{};
  });
  return StreamHold{finished, ticket.status(), ticket.ok() ? ticket.value() : 0, gate};
}

}  // namespace conformance::runtime
