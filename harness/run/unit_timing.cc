#include "run/unit_timing.h"

#include <chrono>
#include <memory>
#include <utility>

namespace conformance {
namespace {

class TimingSink : public ResultSink {
 public:
  explicit TimingSink(ResultSink& next) : next_(next) {}
  void Emit(CheckResult result) override {
    const auto now = std::chrono::steady_clock::now();
    if (result.seconds == 0.0) result.seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    next_.Emit(std::move(result));
  }

 private:
  ResultSink& next_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace

TestUnit WithCheckTiming(TestUnit unit) {
  if (!unit.run) return unit;
  unit.run = [run = std::move(unit.run)](UnitContext& context) {
    TimingSink sink(context.sink);
    UnitContext timed{context.settings, sink};
    run(timed);
  };
  return unit;
}

}  // namespace conformance
