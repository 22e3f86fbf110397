#pragma once
// Stream `second` must not run its copy until `first` has written the buffer; `order` is
// what makes second wait (an event, or a stream dependency). Shared by
// runtime.event.cross_stream_wait and runtime.stream.dependency.
#include <functional>
#include <string>

#include "check_support.h"

namespace conformance::runtime_checks {

Verdict CrossStreamOrder(CheckEnv& env, const std::string& how,
                         const std::function<runtime::CallStatus(runtime::Stream& first,
                                                                 runtime::Stream& second)>& order);

}  // namespace conformance::runtime_checks
