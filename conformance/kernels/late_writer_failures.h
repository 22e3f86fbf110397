#pragma once
// An op's failures that a kernel finishing its work off the stream also causes, held until
// kernel.<Op>.work_after_compute has run. Such a kernel writes its outputs when the machine's
// load lets its own thread run: the tier reads a wrong case again for up to 300 ms
// (RunMode::settle_for), and on a loaded machine the late thread may not have run by then, or
// writes into a buffer a later case reuses. Those value and memory failures then vary with the
// load, while work_after_compute finds the late writer on every run (it reads the outputs right
// after compute returns, before any late thread wrote). So: when it caught one, each held
// failure is reported as not judged, naming that root cause once; otherwise each fails as found.
#include <string>
#include <utility>
#include <vector>

#include "validate/check_log.h"

namespace conformance::kernel_tier {

class LateWriterFailures {
 public:
  void Hold(std::string id, std::string message, validate::Details details) {
    held_.push_back({std::move(id), std::move(message), std::move(details)});
  }

  // `late_writer`: the work_after_compute check that failed, or empty.
  void Report(const std::string& late_writer, validate::CheckLog& log) {
    for (Held& failure : held_) {
      if (late_writer.empty()) {
        log.Fail(failure.id, std::move(failure.message), std::nullopt, std::move(failure.details));
      } else {
        log.Skip(failure.id, "not judged: " + late_writer +
                                 " found the kernel finishing its work off the stream, so what "
                                 "this check read after the stream went idle may not be written "
                                 "yet, or may be a late write into a reused buffer (" +
                                 failure.message + ")");
      }
    }
    held_.clear();
  }

 private:
  struct Held {
    std::string id, message;
    validate::Details details;
  };
  std::vector<Held> held_;
};

}  // namespace conformance::kernel_tier
