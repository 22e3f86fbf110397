#pragma once
// A ResultSink that keeps every result a unit or check log emits, for tests that assert on them.
#include <utility>
#include <vector>

#include "model/check_result.h"
#include "model/test_unit.h"

namespace conformance::test_support {

class CollectingSink : public ResultSink {
 public:
  void Emit(CheckResult result) override { results.push_back(std::move(result)); }
  std::vector<CheckResult> results;
};

}  // namespace conformance::test_support
