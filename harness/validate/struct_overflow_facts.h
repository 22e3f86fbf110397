#pragma once
// What a measured TensorFlow release does when a plugin writes past the end of a struct it was
// handed (load.se.struct_overflow). A write past the end lands on whatever TensorFlow keeps next
// to the struct; whether a user ever sees it depends on what lies there, so it was measured:
// the mock plugin (write_past_end=STRUCT:BYTES:FILL) under the consequence oracle's workload on
// tensorflow-cpu 2.21.0 (`newest`) and 2.15.1 (`tf2.15`), docs/tensorflow/calls.md "Writes past
// a struct". An overrun no larger than the release ran correctly with is a warning that states
// the fact (issue 26: a plugin TensorFlow runs correctly is CONFORMANT, or its findings are
// warnings); a larger one fails naming what TensorFlow did. Under every other profile the
// failure stands: that release keeps other things next to the struct.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace conformance::validate {

// What the plugin wrote past the end, as far as the measurements tell values apart: constant
// non-zero fills (0x3c, 0xff) and zeros were measured. One zero byte among the overrun puts it
// with the zeros (where a zero struct_size past SP_PlatformFns is refused), and such a mix
// takes the smaller of the two measured limits.
enum class PastEndValue { kNonZero, kWithZeros };

// One struct under one measured release, for one kind of value written past it.
struct StructOverflowFact {
  std::string_view profile;      // "newest", "tf2.15"
  std::string_view release;      // leads every message: "TensorFlow 2.21"
  std::string_view struct_name;  // "SP_Device"
  PastEndValue value;            // kWithZeros: measured with zeros
  // The most bytes past sizeof TensorFlow ran the whole workload correctly with, 5 of 5 runs
  // (every smaller size measured ran correctly too).
  std::size_t survived;
  // The smallest size measured to go wrong, and what TensorFlow did then.
  std::size_t fails_at;
  std::string_view consequence;  // "crashes (SIGSEGV) in its first copy to the device"
};

// The fact for `struct_name` under `profile` for `value`; nullptr when not measured.
const StructOverflowFact* FindStructOverflowFact(std::string_view profile,
                                                 std::string_view struct_name, PastEndValue value);

// What TensorFlow keeps right past `struct_name` (the same in 2.15.1 and 2.21.0, read with
// gdb), or "" when not known.
std::string_view WhatLiesPast(std::string_view struct_name);

struct StructOverflowVerdict {
  bool survives;         // measured to run correctly with this many bytes (a warning)
  std::string measured;  // the fact, a sentence that leads the check's message
};

// How `profile`'s TensorFlow fares when `call` writes `bytes` of `value` past the end of
// `struct_name`; nullopt when the profile or the struct was not measured (the failure stands).
std::optional<StructOverflowVerdict> JudgeStructOverflow(std::string_view profile,
                                                         std::string_view struct_name,
                                                         std::string_view call, std::size_t bytes,
                                                         PastEndValue value);

}  // namespace conformance::validate
