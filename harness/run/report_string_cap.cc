#include "run/report_string_cap.h"

namespace conformance {

std::string CapReportString(std::string text, std::size_t cap) {
  if (text.size() <= cap) return text;
  std::size_t keep = cap;
  // Never split a UTF-8 sequence: back off over continuation bytes (10xxxxxx).
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  const std::size_t cut = text.size() - keep;
  text.resize(keep);
  text += "... [" + std::to_string(cut) + " more bytes cut: reports keep " + std::to_string(cap) +
          " bytes of each string]";
  return text;
}

void CapReportStrings(std::vector<CheckResult>& results) {
  for (CheckResult& result : results) {
    result.message = CapReportString(std::move(result.message));
    for (auto& [key, value] : result.details) value = CapReportString(std::move(value));
    if (result.crash) {
      result.crash->last_call = CapReportString(std::move(result.crash->last_call));
      for (std::string& frame : result.crash->backtrace) frame = CapReportString(std::move(frame));
    }
  }
}

}  // namespace conformance
