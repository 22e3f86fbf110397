#include "run/waivers.h"

#include <charconv>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "run/did_you_mean.h"

namespace conformance {
namespace {

const std::vector<std::string>& AllowedKeys() {
  static const std::vector<std::string> keys = {"id", "reason", "profile", "until", "flaky"};
  return keys;
}

std::string Location(const std::string& file, int line, int column) {
  std::string text = file;
  if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
  return text;
}

// Collects what the error needs from a YAML position (yaml-cpp counts from 0).
struct Position {
  int line;
  int column;
};

Position At(const YAML::Mark& mark) { return {mark.line + 1, mark.column + 1}; }

[[noreturn]] void Fail(const std::string& file, Position at, const std::string& key,
                       const std::string& what) {
  throw WaiverFileError(file, at.line, at.column, key, what);
}

std::optional<std::chrono::year_month_day> ParseDate(std::string_view text) {
  // Strictly YYYY-MM-DD: dates in waivers are read by people and by scripts alike.
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int year = 0;
  unsigned month = 0;
  unsigned day = 0;
  const auto parse = [&](std::size_t from, std::size_t length, auto& out) {
    const char* begin = text.data() + from;
    const auto [end, error] = std::from_chars(begin, begin + length, out);
    return error == std::errc() && end == begin + length;
  };
  if (!parse(0, 4, year) || !parse(5, 2, month) || !parse(8, 2, day)) return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{year}, std::chrono::month{month},
                                         std::chrono::day{day}};
  if (!date.ok()) return std::nullopt;
  return date;
}

std::string ScalarValue(const std::string& file, const YAML::Node& value, const std::string& key) {
  if (!value.IsScalar()) {
    Fail(file, At(value.Mark()), key, "'" + key + "' must be a single value (a string)");
  }
  return value.Scalar();
}

// `flaky: true` marks a known flake (a waiver for the `flaky` outcome only).
bool FlakyValue(const std::string& file, const YAML::Node& value, const std::string& where) {
  bool flaky = false;
  if (!value.IsScalar() || !YAML::convert<bool>::decode(value, flaky)) {
    Fail(file, At(value.Mark()), "flaky",
         where + ": 'flaky' must be true or false, got '" +
             (value.IsScalar() ? value.Scalar() : std::string("a collection")) + "'");
  }
  return flaky;
}

Waiver ParseEntry(const std::string& file, const YAML::Node& entry, std::size_t number) {
  const std::string where = "waiver entry " + std::to_string(number);
  if (!entry.IsMap()) {
    Fail(file, At(entry.Mark()), "",
         where + " must be a mapping with keys id and reason (e.g. '- id: load.*')");
  }
  Waiver waiver;
  waiver.source = Location(file, At(entry.Mark()).line, At(entry.Mark()).column);
  std::set<std::string> seen;
  for (const auto& pair : entry) {
    const YAML::Node& key_node = pair.first;
    const YAML::Node& value = pair.second;
    if (!key_node.IsScalar()) Fail(file, At(key_node.Mark()), "", where + ": keys must be strings");
    const std::string key = key_node.Scalar();
    if (!seen.insert(key).second) {
      Fail(file, At(key_node.Mark()), key, where + ": duplicate key '" + key + "'");
    }
    if (key == "id") {
      waiver.id = ScalarValue(file, value, key);
    } else if (key == "reason") {
      waiver.reason = ScalarValue(file, value, key);
    } else if (key == "profile") {
      waiver.profile = ScalarValue(file, value, key);
    } else if (key == "until") {
      const std::string text = ScalarValue(file, value, key);
      waiver.until = ParseDate(text);
      if (!waiver.until) {
        Fail(file, At(value.Mark()), key,
             where + ": 'until' must be a date YYYY-MM-DD, got '" + text + "'");
      }
    } else if (key == "flaky") {
      waiver.flaky = FlakyValue(file, value, where);
    } else {
      std::string message = where + ": unknown key '" + key + "'";
      if (auto suggestion = ClosestMatch(key, AllowedKeys())) {
        message += " (did you mean '" + *suggestion + "'?)";
      }
      message += "; allowed keys: id, reason, profile, until, flaky";
      Fail(file, At(key_node.Mark()), key, message);
    }
  }
  // Required keys: reported at the entry, since there is no key to point at.
  if (!seen.contains("id") || waiver.id.empty()) {
    Fail(file, At(entry.Mark()), "id", where + ": missing or empty 'id' (a check id glob)");
  }
  if (!seen.contains("reason") || waiver.reason.empty()) {
    Fail(file, At(entry.Mark()), "reason",
         where + ": missing or empty 'reason' (every waiver must say why)");
  }
  return waiver;
}

}  // namespace

WaiverFileError::WaiverFileError(std::string file, int line, int column, std::string key,
                                 const std::string& what)
    : UsageError(Location(file, line, column) + ": " + what),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)) {}

std::vector<Waiver> ParseWaivers(std::string_view yaml_text, const std::string& file_label) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& error) {
    Fail(file_label, At(error.mark), "", "invalid YAML: " + error.msg);
  }
  std::vector<Waiver> waivers;
  if (root.IsNull()) return waivers;  // an empty file waives nothing
  if (!root.IsSequence()) {
    Fail(file_label, At(root.Mark()), "",
         "the waivers file must be a YAML list of entries with keys id and reason");
  }
  std::size_t number = 0;
  for (const YAML::Node& entry : root) {
    waivers.push_back(ParseEntry(file_label, entry, ++number));
  }
  return waivers;
}

std::vector<Waiver> LoadWaiverFile(const std::filesystem::path& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw WaiverFileError(path.string(), 0, 0, "", "cannot read waivers file: is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw WaiverFileError(path.string(), 0, 0, "",
                          std::string("cannot read waivers file: ") + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw WaiverFileError(path.string(), 0, 0, "",
                          std::string("cannot read waivers file: ") + std::strerror(errno));
  }
  return ParseWaivers(text.str(), path.string());
}

}  // namespace conformance
