#pragma once
// The recorded TensorFlow oracle: what TensorFlow's CPU kernels computed for the generated cases
// of every op of its registry (generated_cases.h), run once by specs/ops/record/record.py and
// committed, so the kernel tier judges a registered kernel no built-in scenario covers without
// TensorFlow installed. A case is named by its cell (op, dtype), its shape_index and the digest of
// its attrs; the digest of its inputs says whether the generator still makes the inputs the
// record was made from (otherwise the record is out of date: a suite problem, never the plugin's).
//
// One file per op, <dir>/<release>/<Op>.json.gz (zlib):
//   {"op", "tensorflow": release, "seed",
//    "left_out": why (the whole op: a stateful op draws new values on every run),
//    "stand_in": how (an op TensorFlow's CPU has no kernel for, computed by other CPU ops:
//                tests/tensorflow_oracle/cpu_stand_ins.py),
//    "cells": {"<dtype>": [{"shape_index", "variant", "attrs", "inputs",
//                           "cpu": {"outputs": [{dtype, shape, hex}]} | {"error": {code, message}}
//                           | "left_out": why,
//                           "float64": {"outputs": [...]} (where run so: RecordedCase::float64)}]}}
// "cpu" is what the --tensorflow driver reports for TensorFlow's CPU (kernel_cases.h), so the
// judgement is tensorflow_cpu_oracle.h's.
//
// An older release whose CPU computes some cells otherwise (a half sum accumulated another way,
// GraphDefVersion) has an overlay, <dir>/<that release>/<Op>.json.gz, in the same format and
// holding only those cells, recorded on that release's wheel (specs/ops/record/overlay.py): a
// plugin built for that release is judged by what its TensorFlow computes there.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace conformance::kernels {

// The TensorFlow release and the seed the committed record was made with: generated cases are
// judged from it only with the inputs of this seed.
inline constexpr const char* kRecordedRelease = "2.21.0";
inline constexpr std::uint64_t kRecordedSeed = 0;

// FNV-1a (64 bits, hex) of a case's "attrs" and of its "inputs" (their JSON text: keys sorted,
// tensors as hex), the two digests a record entry holds.
std::string AttrsDigest(const nlohmann::json& kernel_case);
std::string InputsDigest(const nlohmann::json& kernel_case);

// $PLUGIN_CONFORMANCE_RECORD, else share/plugin_conformance/record beside the installed
// executable, else the source tree's specs/ops/record.
std::string RecordDirectory();

// What the record says about one generated case.
struct RecordedCase {
  enum class Kind {
    kResult,       // `cpu` holds TensorFlow's CPU result (outputs or its error)
    kLeftOut,      // recorded as not judgeable by value; `reason` says why
    kNotRecorded,  // no entry for this cell, shape_index and attrs; `reason` says which
    kOutOfDate,    // an entry, but made from other inputs: the generator changed
  };
  Kind kind = Kind::kNotRecorded;
  std::string reason;
  nlohmann::json cpu;
  std::string release;  // whose CPU computed `cpu`: kRecordedRelease or an overlay's release
  // TensorFlow's CPU on the same case with its inputs of the case's dtype in float64 (record.py's
  // FLOAT64_JUDGED_OPS: half and bfloat16 sums, which releases accumulate their own ways); taken
  // from the record when an overlay judges the case. Null where not recorded.
  nlohmann::json float64;
};

// The record of one op, read on first use; a missing or unreadable file is said in `Find`.
// `release`: the TensorFlow release the plugin is judged for; its overlay's cells, where it has
// one, replace the record's.
class RecordedOp {
 public:
  RecordedOp(const std::string& directory, const std::string& op,
             const std::string& release = kRecordedRelease);
  // `kernel_case`: a generated case (generated_cases.h), with id, dtype, shape_index, attrs and
  // inputs.
  RecordedCase Find(const nlohmann::json& kernel_case) const;
  // Why nothing of the op is judged (unreadable file, an op left out whole); empty otherwise.
  const std::string& unavailable() const { return unavailable_; }
  // How TensorFlow's CPU computed the op's values when it has no kernel of the op ("computed as
  // Conv2DBackpropInput of the input's shape"); empty for an op recorded through its own kernel.
  std::string stand_in() const;
  // The release whose record judges the op's `dtype` cell: the overlay's where it holds the cell.
  const std::string& ReleaseOf(const std::string& dtype) const;

 private:
  std::string op_;
  std::string unavailable_;
  nlohmann::json record_;
  std::string overlay_release_;
  nlohmann::json overlay_;  // null without an overlay
};

// What a generated case is judged against, as an entry of JudgeGeneratedCells'
// `ran` holds it (tensorflow_cpu_oracle.h): {"cpu": the record's result} and, where the record ran
// the case in float64 too, {"float64": that result rounded to the case's dtype}. `recorded_as`:
// the case the record was read for (a borrowed cell's source case, borrowed_cells.h).
nlohmann::json RecordedExpectations(const nlohmann::json& kernel_case,
                                    const nlohmann::json& recorded_as, const RecordedCase& found);

// The gzip-compressed file's text; nullopt when it cannot be read or inflated.
std::optional<std::string> ReadGzipFile(const std::string& path);

}  // namespace conformance::kernels
