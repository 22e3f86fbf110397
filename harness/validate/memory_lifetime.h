#pragma once
// Helpers for "does this string outlive the call that produced it?".
#include <string>

namespace conformance::validate {

// True when `pointer` lies inside the calling thread's stack mapping below `live_frame`: in the
// part where the frames of calls that have returned were. Everything above it (the frames still
// live, and on the main thread argv and the environment strings, which sit at the top of the
// same mapping and live as long as the process) is not dead stack.
bool PointsIntoDeadStack(const void* pointer, const void* live_frame);
// Overwrites the dead part of the stack below the caller, where a returned callee's locals lived.
void ScribbleOverDeadStack();

// Describes why a string the plugin handed over is not stable, or "" when it is. `live_frame`
// is __builtin_frame_address(0) of the function that made the plugin call and checks.
std::string StringLifetimeProblem(const char* pointer, const std::string& snapshot,
                                  const void* live_frame);

}  // namespace conformance::validate
