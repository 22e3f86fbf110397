#pragma once
// A RunReport with every outcome and every optional field, and text that is hard to
// serialize (markup, control characters, invalid UTF-8, non-ASCII), shared by the report
// tests and the sample writer whose output CTest validates against the schemas.
#include "catalogue/catalogue.h"
#include "report/check_lookup.h"
#include "run/run_report.h"

namespace conformance::testing {

RunReport SampleReport();

// A kernel tier's report: Relu and MatMul computing wrong values (two root causes, each naming
// its kernel), a deallocate failure two kernels found (one, naming none), and the plugin's
// registered cells, Floor's judged by no check.
RunReport KernelSampleReport();

// A fake catalogue: "load.*" checks are TensorFlow's, the rest stricter.
CheckLookup SampleLookup();

}  // namespace conformance::testing
