#include "kernels/recorded_oracle.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <variant>

#include <zlib.h>

#include "kernels/borrowed_cells.h"
#include "kernels/dtype_values.h"
#include "kernels/tensorflow_cpu_oracle.h"

namespace conformance::kernels {
namespace {

using nlohmann::json;

std::string Fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace

std::string AttrsDigest(const json& kernel_case) {
  return Fnv1a(kernel_case.value("attrs", json::object()).dump());
}

std::string InputsDigest(const json& kernel_case) {
  return Fnv1a(kernel_case.value("inputs", json::array()).dump());
}

std::string RecordDirectory() {
  if (const char* configured = std::getenv("PLUGIN_CONFORMANCE_RECORD");
      configured && *configured) {
    return configured;
  }
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const auto installed =
        (executable.parent_path() / "../share/plugin_conformance/record").lexically_normal();
    if (std::filesystem::is_directory(installed, error)) return installed.string();
  }
  return CONFORMANCE_RECORD_DIR;
}

std::optional<std::string> ReadGzipFile(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return std::nullopt;
  std::string text;
  char buffer[1 << 16];
  int read = 0;
  while ((read = gzread(file, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(read));
  const bool failed = read < 0;
  gzclose(file);
  if (failed) return std::nullopt;
  return text;
}

namespace {

// One record file parsed; a string saying why where it cannot be read or parsed.
std::variant<json, std::string> ReadRecordFile(const std::string& path, const std::string& op) {
  const std::optional<std::string> text = ReadGzipFile(path);
  if (!text) return "the record has no file for " + op + " (" + path + ")";
  json record = json::parse(*text, nullptr, false);
  if (record.is_discarded() || !record.is_object())
    return "the record of " + op + " does not parse (" + path + ")";
  return record;
}

// The `dtype` cell of a record file; null where it has none.
const json* CellOf(const json& record, const std::string& dtype) {
  if (!record.is_object()) return nullptr;
  const auto cells = record.find("cells");
  if (cells == record.end()) return nullptr;
  const auto cell = cells->find(dtype);
  return cell == cells->end() ? nullptr : &*cell;
}

// The entry of `record` for the generated case (its cell, shape_index and attrs); null if none.
const json* EntryOf(const json& record, const json& kernel_case) {
  const json* cell = CellOf(record, kernel_case.value("dtype", ""));
  if (cell == nullptr) return nullptr;
  const int shape_index = kernel_case.value("shape_index", -1);
  const std::string attrs = AttrsDigest(kernel_case);
  for (const json& entry : *cell) {
    if (entry.value("shape_index", -2) == shape_index && entry.value("attrs", "") == attrs)
      return &entry;
  }
  return nullptr;
}

}  // namespace

RecordedOp::RecordedOp(const std::string& directory, const std::string& op,
                       const std::string& release)
    : op_(op) {
  auto base = ReadRecordFile(directory + "/" + kRecordedRelease + "/" + op + ".json.gz", op);
  if (auto* why = std::get_if<std::string>(&base)) {
    unavailable_ = *why;
    return;
  }
  record_ = std::move(std::get<json>(base));
  if (record_.contains("left_out")) {
    unavailable_ = "left out of the record: " + record_["left_out"].get<std::string>();
    return;
  }
  if (release == kRecordedRelease) return;
  const std::string overlay_path = directory + "/" + release + "/" + op + ".json.gz";
  std::error_code error;
  if (!std::filesystem::exists(overlay_path, error)) return;
  auto overlay = ReadRecordFile(overlay_path, op);
  if (auto* why = std::get_if<std::string>(&overlay)) {
    unavailable_ = *why;  // a damaged overlay must not silently judge by the other release
    return;
  }
  overlay_ = std::move(std::get<json>(overlay));
  overlay_release_ = release;
}

std::string RecordedOp::stand_in() const {
  const auto found = record_.is_object() ? record_.find("stand_in") : record_.end();
  return found != record_.end() && found->is_string() ? found->get<std::string>() : std::string();
}

const std::string& RecordedOp::ReleaseOf(const std::string& dtype) const {
  static const std::string recorded = kRecordedRelease;
  return CellOf(overlay_, dtype) != nullptr ? overlay_release_ : recorded;
}

RecordedCase RecordedOp::Find(const json& kernel_case) const {
  RecordedCase found;
  if (!unavailable_.empty()) {
    found.reason = unavailable_;
    found.kind = record_.contains("left_out") ? RecordedCase::Kind::kLeftOut
                                              : RecordedCase::Kind::kNotRecorded;
    return found;
  }
  const std::string dtype = kernel_case.value("dtype", "");
  found.release = ReleaseOf(dtype);
  const json* cell = CellOf(found.release == kRecordedRelease ? record_ : overlay_, dtype);
  if (cell == nullptr) {
    found.reason = "the record has no " + op_ + " (" + dtype + ") cell";
    return found;
  }
  const json& judging = found.release == kRecordedRelease ? record_ : overlay_;
  if (const json* entry = EntryOf(judging, kernel_case)) {
    if (entry->value("inputs", "") != InputsDigest(kernel_case)) {
      found.kind = RecordedCase::Kind::kOutOfDate;
      found.reason = "record out of date: the generator now makes other inputs for " + op_ + " (" +
                     dtype + ") case " + kernel_case.value("variant", "") + " than TensorFlow " +
                     found.release +
                     "'s record was made from; re-record (specs/ops/record/README.md)";
      return found;
    }
    if (entry->contains("left_out")) {
      found.kind = RecordedCase::Kind::kLeftOut;
      found.reason = entry->at("left_out").get<std::string>();
      return found;
    }
    found.kind = RecordedCase::Kind::kResult;
    found.cpu = entry->at("cpu");
    // An overlay holds its release's own CPU results; the float64 run is every release's.
    const json* wide = &judging == &record_ ? entry : EntryOf(record_, kernel_case);
    if (wide != nullptr && wide->value("inputs", "") == entry->value("inputs", "") &&
        wide->contains("float64"))
      found.float64 = wide->at("float64");
    return found;
  }
  found.reason = "the record has no " + op_ + " (" + dtype + ") case " +
                 kernel_case.value("variant", "") +
                 " with these attrs (the registration fixes a type attr the record's kernel "
                 "leaves at its default, or the record predates the generator)";
  return found;
}

json RecordedExpectations(const json& kernel_case, const json& recorded_as,
                          const RecordedCase& found) {
  json expectations = {{"cpu", ResultFor(kernel_case, found.cpu)}};
  const auto dtype = DtypeFromName(recorded_as.value("dtype", ""));
  if (!found.float64.is_null() && dtype)
    expectations["float64"] = ResultFor(kernel_case, RoundedTo(found.float64, *dtype));
  return expectations;
}

}  // namespace conformance::kernels
