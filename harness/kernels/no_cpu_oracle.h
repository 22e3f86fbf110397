#pragma once
// Ops TensorFlow's CPU cannot judge at all, whatever their inputs (a family file's
// `no_cpu_oracle:`, measured on the wheel): those it has no kernel for that any node finds
// (_FusedBatchNormGradEx: GPU only; KthOrderStatistic: TPU only; those with a CPU stand-in
// have a family instead: standin_families.yaml), and stateful random ops whose draws differ on
// every run that random_draws.h does not judge by their distribution (none today: it judges all
// 19, and Timestamp's readings of the clock), and ops whose result depends on what earlier calls
// left in the process (a collective instance's first shape, a staging area's values), which no case
// run on its own can reproduce, and ops whose only CPU kernel kills the process on valid inputs
// (three quantized convolutions). The generator gives their cells this reason instead of a family
// or same-shape cases, so op_coverage says why they have no cases rather than that their inputs
// relate.
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace conformance::kernels {

// `no_cpu_oracle:` of one file: {no_kernel: {op: why}, random_draws: {op: why},
// shared_state: {op: why}, dies: {op: why}} -> op -> the
// not-generated reason; the first error as "file:line:col: message". A file without the key
// gives an empty map.
std::variant<std::map<std::string, std::string>, std::string> ParseNoCpuOracle(
    std::string_view text, const std::string& file);

// Every compiled-in file's (specs/ops/families/*.yaml); a file that does not parse aborts.
const std::map<std::string, std::string>& BuiltinNoCpuOracle();

// The reason's beginnings, which op_coverage groups by.
inline constexpr std::string_view kNoCpuKernelReason =
    "TensorFlow's CPU has no kernel any node of the op finds";
inline constexpr std::string_view kRandomDrawsReason =
    "a stateful random op TensorFlow's CPU draws anew on every run";
inline constexpr std::string_view kSharedStateReason =
    "its result on TensorFlow's CPU depends on state earlier calls left in the process";
inline constexpr std::string_view kCpuDiesReason = "TensorFlow's CPU kernel dies on every case";
inline constexpr std::string_view kUnreproducibleReason =
    "TensorFlow's CPU gives other results for the same case on another run";

}  // namespace conformance::kernels
