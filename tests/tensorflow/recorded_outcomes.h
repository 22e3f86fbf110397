#pragma once
// TensorFlow's load outcomes recorded per release (tests/tensorflow/recorded/VERSION.jsonl), for
// the releases not live in CI: what tf_driver reported for every plugin of the agreement, reduced
// to the fields FromDriver reads, so a recorded release is compared by the same rules as a live
// one. The first line says which release, when and by what command; then one plugin a line.
// Paths under the build folder are written as "<build>" (they vary between machines) and put
// back on reading.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tensorflow_agreement {

struct RecordedRelease {
  std::string release;                             // "2.17.1"
  std::string recorded;                            // the UTC date of the measurement, "2026-11-29"
  std::string command;                             // the command that re-records it
  std::map<std::string, nlohmann::json> outcomes;  // plugin name -> tf_driver's result
};

// Writes `results` (tf_driver's JSON lines, each with its "name") as the record of `release`.
// Throws when a result came from another TensorFlow than `release` (its tensorflow_version).
void WriteRecordedRelease(const std::string& path, const std::string& release,
                          const std::string& command, const std::vector<nlohmann::json>& results,
                          const std::string& build_dir);

// Reads a record, with "<build>" replaced by `build_dir`. Throws on a malformed file.
RecordedRelease ReadRecordedRelease(const std::string& path, const std::string& build_dir);

}  // namespace tensorflow_agreement
