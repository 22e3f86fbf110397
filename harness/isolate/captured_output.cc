#include "isolate/captured_output.h"

#include <algorithm>

namespace conformance::isolate {

void CapturedOutput::Append(std::string_view bytes) {
  const std::size_t room = limit_ - std::min(limit_, kept_.size());
  const std::size_t keep = std::min(room, bytes.size());
  kept_.append(bytes.substr(0, keep));
  dropped_ += bytes.size() - keep;
}

std::string CapturedOutput::Text() const {
  if (dropped_ == 0) return kept_;
  std::string text = kept_;
  if (!text.empty() && text.back() != '\n') text += '\n';
  text += "[... " + std::to_string(dropped_) + " more bytes not kept (limit " +
          std::to_string(limit_) + " bytes)]\n";
  return text;
}

}  // namespace conformance::isolate
