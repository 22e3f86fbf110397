#pragma once
// gmock classes for the graph-optimizer (TP_Optimizer, TF_InitGraph) and profiler
// (TP_ProfilerFns, TF_InitProfiler) tables. Their C callbacks carry no handle back to a mock
// (create_func takes nothing), so they reach the newest live mock of each kind.
// Defaults: the optimizer returns the graph unchanged; the profiler collects an empty XSpace.
#include <gmock/gmock.h>

#include <string>

#include "mocks/faults.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"

namespace conformance::mocks {

class MockOptimizer {
 public:
  MockOptimizer();
  virtual ~MockOptimizer();
  MOCK_METHOD(void, InitGraph, (TP_OptimizerRegistrationParams*, TF_Status*));
  MOCK_METHOD(void*, Create, ());
  MOCK_METHOD(void, Optimize,
              (void*, const TF_Buffer*, const TF_GrapplerItem*, TF_Buffer*, TF_Status*));
  MOCK_METHOD(void, Destroy, (void*));
  std::string& device_type() { return device_type_; }
  Faults& faults() { return faults_; }
  static MockOptimizer* Current();

 private:
  std::string device_type_ = "MOCK_DEVICE";
  Faults faults_;
  void* token_;
};

class MockProfiler {
 public:
  MockProfiler();
  virtual ~MockProfiler();
  MOCK_METHOD(void, InitProfiler, (TF_ProfilerRegistrationParams*, TF_Status*));
  MOCK_METHOD(void, Start, (const TP_Profiler*, TF_Status*));
  MOCK_METHOD(void, Stop, (const TP_Profiler*, TF_Status*));
  MOCK_METHOD(void, CollectDataXspace, (const TP_Profiler*, uint8_t*, size_t*, TF_Status*));
  MOCK_METHOD(void, DestroyProfiler, (TP_Profiler*));
  MOCK_METHOD(void, DestroyProfilerFns, (TP_ProfilerFns*));
  std::string& device_type() { return device_type_; }
  Faults& faults() { return faults_; }
  static MockProfiler* Current();

 private:
  std::string device_type_ = "MOCK_DEVICE";
  Faults faults_;
  void* token_;
};

}  // namespace conformance::mocks
