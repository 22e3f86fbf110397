// op_summary_compare --release R SUMMARIES
// Compares the suite's text of each op (ops::SummarizeOpDef over the embedded registry of
// release R) with TensorFlow's, read from SUMMARIES ("<op> TAB <summary>" lines, as
// tests/ops/op_summaries.py prints them). Every op of the registry must be there and equal, and
// every op there must be in the registry. Exit 0 when all are equal, 1 otherwise, 2 on usage.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "ops/op_summary.h"
#include "ops/registry.h"

namespace {

using conformance::ops::FindOpRegistry;
using conformance::ops::SummarizeOpDef;

int Usage() {
  std::cerr << "usage: op_summary_compare --release RELEASE SUMMARIES\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) != "--release") return Usage();
  const auto* registry = FindOpRegistry(argv[2]);
  if (registry == nullptr) {
    std::cerr << "no embedded op registry for release " << argv[2] << "\n";
    return 2;
  }
  std::ifstream in(argv[3]);
  if (!in) {
    std::cerr << "cannot read " << argv[3] << "\n";
    return 2;
  }
  std::map<std::string, std::string> tensorflow;
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (tab != std::string::npos) tensorflow[line.substr(0, tab)] = line.substr(tab + 1);
  }
  int differences = 0;
  for (const auto name : registry->OpNames()) {
    const std::string ours = SummarizeOpDef(*registry->Find(name));
    const auto it = tensorflow.find(std::string(name));
    if (it == tensorflow.end()) {
      std::cout << "MISSING in TensorFlow's list: " << name << "\n";
      ++differences;
    } else if (it->second != ours) {
      std::cout << "DIFFERS " << name << "\n  TensorFlow: " << it->second
                << "\n  ours:       " << ours << "\n";
      ++differences;
    }
    if (it != tensorflow.end()) tensorflow.erase(it);
  }
  for (const auto& [name, text] : tensorflow) {
    std::cout << "NOT IN the " << argv[2] << " registry: " << name << "\n";
    ++differences;
  }
  std::cout << registry->size() << " ops of " << argv[2] << ", " << differences
            << " differences between TensorFlow's summaries and ours\n";
  return differences == 0 ? 0 : 1;
}
