#pragma once
// What a unit's child wrote to its stdout and stderr (the plugin's own prints, mostly), kept
// up to a bound so a chatty or looping plugin cannot exhaust the parent's memory. Attached to
// the unit's results instead of being interleaved into the console report.
#include <cstddef>
#include <string>
#include <string_view>

namespace conformance::isolate {

class CapturedOutput {
 public:
  static constexpr std::size_t kDefaultLimit = std::size_t{64} * 1024;

  explicit CapturedOutput(std::size_t limit = kDefaultLimit) : limit_(limit) {}

  void Append(std::string_view bytes);
  // Everything kept, then "[... N more bytes not kept]" if the bound was reached.
  std::string Text() const;

 private:
  std::size_t limit_;
  std::string kept_;
  std::size_t dropped_ = 0;
};

}  // namespace conformance::isolate
