#pragma once
// plugin_conformance --tensorflow: the kernel cases the installed TensorFlow ran twice, on the
// plugin's device and on its own CPU kernels (harness/installed_tensorflow/kernel_cases.h),
// judged here with each case's tolerance, the kernel tier's comparison. TensorFlow's CPU is the
// second oracle next to the reference plugin: a plugin's kernel that, inside TensorFlow, does not
// compute what TensorFlow's own CPU kernel computes is a finding on that op.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensorflow/c/tf_datatype.h"

#include "model/check_result.h"

namespace conformance::kernels {

struct CpuOracleJudgement {
  // {cases, compared, agree, not_on_device, disagreements: [{id, op, dtype, scenario, message}],
  //  cells: {"Op": {"dtype": "agrees" | "disagrees" | "not_on_device"}},
  //  cpu_kernel_plugin: true when the plugin has no device and its cases ran on CPU; then
  //  not_on_device counts the cases whose (op, dtype) none of its CPU kernels claims}
  nlohmann::json summary;
  // One failed result per disagreeing case id, "<case id>.in_tensorflow", naming the op's kernel
  // (details["kernel"]) and filed under the kernel tier's root cause for the same defect
  // (failing_call compute_func, problem "wrong values" or a differing status).
  std::vector<CheckResult> failures;
  // One result per generated cell (generated_cases.h), "kernel.<Op>.<dtype>.generated": pass
  // when its cases agree, fail (filed as above) when one disagrees, skipped with TensorFlow's
  // message when its CPU rejects every case, not_supported when TensorFlow ran none of them on
  // the plugin's device, or the cell's cases could not be generated (the reason). A case its
  // family marks as the op's error path (`cpu_status`) is judged by its status instead of
  // being counted as rejected.
  std::vector<CheckResult> generated;
  // One result per scenario case id that ran without failing (every shape of it): pass when it
  // agrees with TensorFlow's CPU, not_supported when TensorFlow ran it on no kernel of the plugin,
  // skipped when TensorFlow could not run it at all (its message). So an `.in_tensorflow` check
  // that is selected says what it verified, as every other check does.
  std::vector<CheckResult> agreements;
};

// Who judged a generated cell, as its messages say it: where the plugin's kernel ran and what
// its results were compared with.
struct OracleWords {
  std::string where = "inside the installed TensorFlow";
  std::string oracle = "TensorFlow's own CPU kernel";
};

// `cases` is the case dump (case_json.h, installed_cases.h) handed to the driver, `ran` the
// driver's `kernel_cases` (one {id, plugin, cpu} or {id, unsupported} per case).
CpuOracleJudgement JudgeAgainstTensorFlowCpu(const nlohmann::json& cases,
                                             const nlohmann::json& ran);

// The generated cells of `cases` alone (`generated` and the summary's "generated" counts), their
// TensorFlow CPU results taken from `ran` whatever produced them: the kernel tier judging from
// the recorded oracle (recorded_oracle.h) gives the plugin's results it computed itself and the
// record's, so both routes judge a cell by the same rules.
CpuOracleJudgement JudgeGeneratedCells(const nlohmann::json& cases, const nlohmann::json& ran,
                                       const OracleWords& words);

// A result ({outputs: [{dtype, shape, hex}]}) with its double outputs rounded to `dtype`, so
// TensorFlow's CPU run of a case in float64 compares with the case's own results. An entry of
// `ran` may carry one as "float64" beside "cpu" (the record's rounded already, the installed
// TensorFlow's in double: float64_runs.h): the plugin's result agrees with either.
nlohmann::json RoundedTo(const nlohmann::json& result, TF_DataType dtype);

}  // namespace conformance::kernels
