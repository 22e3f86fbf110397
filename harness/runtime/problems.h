#pragma once
// The stable `problem` phrases of a failure's details (with `failing_call`, the callback
// blamed). The run layer groups failures with equal (failing_call, problem) into one root
// cause, so every check that blames a callback for the same fault must use the same words.
namespace conformance::runtime {

inline constexpr const char* kWrongBytesWritten = "wrong bytes written";
inline constexpr const char* kLateCompletion = "late completion";

}  // namespace conformance::runtime
