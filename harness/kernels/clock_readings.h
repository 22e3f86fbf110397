#pragma once
// Timestamp reads the wall clock: no recorded value can judge it, and like a random draw it
// differs on every call. random_draws.h's machinery judges it the same way, by properties: one
// case (no inputs, no attrs) run as two steps of one kernel instance, each a float64 scalar
// within kClockSlackSeconds of the judge's own wall clock (seconds since the Unix epoch, as
// TensorFlow 2.21.0's CPU gives: 1796008253.064 next to Python's time.time() 1796008253.064,
// measured on the wheel), and the second not before the first.
#include "kernels/random_draws.h"

namespace conformance::kernels {

// Generous: the judge reads its clock after the device's steps, in the kernel tier a moment
// later, in random_draws_in_cpu.py seconds later. A kernel reading a monotonic clock (seconds
// since boot) or counting milliseconds is off by years.
inline constexpr double kClockSlackSeconds = 600;

extern const DrawKind kClockReadings;

}  // namespace conformance::kernels
