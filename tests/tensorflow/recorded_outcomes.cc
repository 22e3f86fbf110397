#include "recorded_outcomes.h"

#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "process_pool.h"

namespace tensorflow_agreement {
namespace {

using nlohmann::json;

constexpr const char* kBuildMarker = "<build>";

// What FromDriver reads of a tf_driver result (verdicts.cc), and the co-loaded plugin's status
// that explains a co-load run; the rest (devices, copies, timings) is not part of the verdict.
constexpr const char* kVerdictFields[] = {"outcome",       "load_status",     "co_load_status",
                                          "fatal",         "devices_outcome", "devices_status",
                                          "devices_fatal", "driver_error"};

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) {
    text.replace(at, from.size(), to);
  }
}

json Replaced(const json& value, const std::string& from, const std::string& to) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    ReplaceAll(text, from, to);
    return text;
  }
  if (!value.is_structured()) return value;
  json copy = value;
  for (auto& item : copy) item = Replaced(item, from, to);
  return copy;
}

std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[16];
  std::strftime(date, sizeof date, "%F", &utc);
  return date;
}

}  // namespace

void WriteRecordedRelease(const std::string& path, const std::string& release,
                          const std::string& command, const std::vector<json>& results,
                          const std::string& build_dir) {
  std::map<std::string, json> lines;
  for (const json& result : results) {
    const std::string version = result.value("tensorflow_version", release);
    if (version != release) {
      throw std::runtime_error("recording " + release + ": " + result.value("name", "?") +
                               " ran in TensorFlow " + version);
    }
    json line = {{"name", result.value("name", "")}};
    for (const char* field : kVerdictFields) {
      if (result.contains(field)) line[field] = result[field];
    }
    lines[line["name"].get<std::string>()] = Replaced(line, build_dir, kBuildMarker);
  }
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << json{{"release", release}, {"recorded", Today()}, {"command", command}}.dump() << '\n';
  for (const auto& [name, line] : lines) out << line.dump() << '\n';
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

RecordedRelease ReadRecordedRelease(const std::string& path, const std::string& build_dir) {
  std::istringstream lines(ReadFile(path));
  std::string first;
  std::getline(lines, first);
  const json header = json::parse(first, nullptr, false);
  if (header.is_discarded() || !header.contains("release")) {
    throw std::runtime_error(path + ": the first line is not the record's header");
  }
  RecordedRelease record;
  record.release = header["release"].get<std::string>();
  record.recorded = header.value("recorded", "");
  record.command = header.value("command", "");
  for (std::string line; std::getline(lines, line);) {
    const json outcome = json::parse(line, nullptr, false);
    if (outcome.is_discarded() || !outcome.contains("name")) {
      throw std::runtime_error(path + ": not a recorded outcome: " + line);
    }
    record.outcomes[outcome["name"].get<std::string>()] =
        Replaced(outcome, kBuildMarker, build_dir);
  }
  return record;
}

}  // namespace tensorflow_agreement
