#pragma once
// TensorFlow's one-line text of an op definition (its SummarizeOpDef), e.g.
//   Op<name=Mean; signature=input:T, reduction_indices:Tidx -> output:T;
//      attr=keep_dims:bool,default=false; attr=T:type,allowed=[DT_FLOAT, ...]; ...>
// TensorFlow puts it into messages about an op, such as the INVALID_ARGUMENT it aborts with when
// a kernel names a HostMemory argument the op does not have; the load tier quotes it from here.
// tests/ops/op_summaries.py prints TensorFlow's own text of every op for comparison.
#include <string>

#include "ops/op_def.h"

namespace conformance::ops {

std::string SummarizeOpDef(const OpDef& op);

}  // namespace conformance::ops
