#pragma once
// Helpers for "does this string outlive the call that produced it?".
#include <string>

namespace conformance::validate {

// True when `pointer` lies inside the calling thread's stack mapping.
bool PointsIntoStack(const void* pointer);
// Overwrites the dead part of the stack below the caller, where a returned callee's locals lived.
void ScribbleOverDeadStack();

// Describes why a string the plugin handed over is not stable, or "" when it is.
std::string StringLifetimeProblem(const char* pointer, const std::string& snapshot);

}  // namespace conformance::validate
