#pragma once
// The reference optimizer's one pass: fold Identity chains. An Identity node that TensorFlow
// did not ask to preserve, with exactly one data input, no control inputs and the same device
// as its producer, only forwards a tensor; its consumers can read the producer directly. A
// chain x -> Identity -> Identity -> y becomes x -> y. Everything else in the GraphDef
// (attributes, library, versions, unknown fields) is copied unchanged.
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "stream_executor/status.h"

namespace reference_plugin::graph {

struct FoldResult {
  std::string graph;  // the serialized, optimized GraphDef
  int folded = 0;     // Identity nodes removed
};

// Decides per Identity node whether folding it keeps what its consumers read; empty: always.
using FoldGuard = std::function<bool(const std::string& identity)>;

// `graph_def` is a serialized GraphDef; `preserve` the names TensorFlow must find afterwards;
// `guard`, when set, must also approve each Identity folded.
Status fold_identity_chains(std::string_view graph_def, const std::set<std::string>& preserve,
                            FoldResult* result, const FoldGuard& guard = {});

}  // namespace reference_plugin::graph
