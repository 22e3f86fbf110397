#include "scenario/readback_blame.h"

#include <cstddef>
#include <vector>

#include "runtime/byte_patterns.h"
#include "runtime/problems.h"

namespace conformance::scenario {
namespace {

bool Matches(const ExpectedBytes& expected, const uint8_t* actual) {
  return !FirstDifference(expected, actual);
}

// Unknown bytes of the model take the trusted bytes' values, so the description only speaks
// of bytes the scenario defined.
std::string DescribeAgainst(const uint8_t* actual, const ExpectedBytes& expected,
                            const std::vector<uint8_t>& trusted) {
  std::vector<uint8_t> reference = trusted;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (expected.known[i]) reference[i] = expected.bytes[i];
  }
  return runtime::DescribeWrongBytes(reinterpret_cast<const std::byte*>(actual),
                                     reinterpret_cast<const std::byte*>(reference.data()),
                                     reference.size());
}

}  // namespace

Blame LocaliseReadback(Backend& backend, const Suspect& suspect, uint64_t seed,
                       const std::vector<WriteCall>& writes) {
  if (Matches(suspect.expected, suspect.host)) {
    Blame late;
    const std::string who = suspect.observer.empty() ? "the synchronising step" : suspect.observer;
    late.tail = "; the right bytes were there once everything was synchronised: " + who +
                " returned before the data arrived (late completion)";
    if (!suspect.observer.empty()) {
      late.details = {{"failing_call", suspect.observer},
                      {"problem", suspect.observer == "record_event" ? runtime::kEventCompleteEarly
                                                                     : runtime::kLateCompletion}};
    }
    return late;
  }
  if (auto leg = backend.FindWrongLeg(suspect.device, seed)) {
    return Blame{leg->description + ", found by checking each copy and fill on its own after ",
                 "",
                 {{"failing_call", leg->failing_call}, {"problem", leg->problem}}};
  }
  // Right over whole buffers, maybe not with the step's own size and offsets (an odd size, the
  // byte past the range, a synchronous copy's direction): each write into the source again.
  for (const WriteCall& write : writes) {
    if (auto wrong = backend.ReplayWrite(write, seed)) {
      return Blame{wrong->description + ", found by doing each write into it again after ",
                   "",
                   {{"failing_call", wrong->failing_call}, {"problem", wrong->problem}}};
    }
  }
  if (suspect.source) {
    const auto trusted = backend.ReadTrusted(*suspect.source, suspect.expected.bytes.size());
    if (trusted && Matches(suspect.expected, trusted->data()) && !suspect.ordered_by.empty()) {
      // Every copy is right on its own and the device holds the right bytes: the read ran
      // before they arrived, which is what ordered_by should have prevented.
      return Blame{suspect.ordered_by + " did not order the write before this read (the read got " +
                       DescribeAgainst(suspect.host, suspect.expected, *trusted) +
                       "; every copy is right on its own and the device holds the right bytes): ",
                   "",
                   {{"failing_call", suspect.ordered_by},
                    {"problem", suspect.ordered_by == "record_event" ? runtime::kEventCompleteEarly
                                                                     : runtime::kLateCompletion}}};
    }
    if (trusted && Matches(suspect.expected, trusted->data()) &&
        suspect.reader.starts_with("sync_") && suspect.writer.starts_with("sync_")) {
      // Both synchronous: the same read done again tells a reader that writes wrong bytes
      // (wrong again) from a writer that returned before its copy landed (right now).
      std::vector<uint8_t> again(suspect.expected.bytes.size());
      if (backend.MemcpyDtoH(std::nullopt, again.data(), *suspect.source, again.size()).code == 0 &&
          Matches(suspect.expected, again.data())) {
        return Blame{suspect.writer + " returned before its copy was done (" + suspect.reader +
                         " right after it got " +
                         DescribeAgainst(suspect.host, suspect.expected, *trusted) +
                         "; the same read done again gets the right bytes): ",
                     "",
                     {{"failing_call", suspect.writer}, {"problem", runtime::kLateCompletion}}};
      }
    }
    if (trusted && Matches(suspect.expected, trusted->data())) {
      return Blame{
          "wrong bytes written by " + suspect.reader + " (" +
              DescribeAgainst(suspect.host, suspect.expected, *trusted) +
              "): the device holds the right bytes, read through the known-good copy paths; ",
          "",
          {{"failing_call", suspect.reader}, {"problem", runtime::kWrongBytesWritten}}};
    }
  }
  return Blame{
      "",
      "; still wrong once everything was synchronised, every copy and fill callback writes the "
      "right bytes on its own (whole 4096-byte buffers), and so does each fill and device copy "
      "into it done again with its own arguments, so no single callback is named",
      {}};
}

}  // namespace conformance::scenario
