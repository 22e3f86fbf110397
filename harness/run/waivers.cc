#include "run/waivers.h"

#include <charconv>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "run/did_you_mean.h"
#include "run/glob.h"
#include "run/root_causes.h"

namespace conformance {
namespace {

const std::vector<std::string>& AllowedKeys() {
  static const std::vector<std::string> keys = {"id",       "reason",  "profile", "until",
                                                "callback", "problem", "kernel",  "flaky"};
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

// Every problem of a file, so a vendor fixes them in one round; thrown together at the end.
class FileErrors {
 public:
  explicit FileErrors(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  void Add(Position at, const std::string& key, const std::string& what) {
    errors_.emplace_back(file_, at.line, at.column, key, what);
  }
  bool empty() const { return errors_.empty(); }
  void ThrowIfAny() const {
    if (!errors_.empty()) throw WaiverFileError(errors_);
  }

 private:
  std::string file_;
  std::vector<WaiverFileError> errors_;
};

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

// The scalar a key holds; nullopt (and an error) for a list or a map.
std::optional<std::string> ScalarValue(FileErrors& errors, const YAML::Node& value,
                                       const std::string& key) {
  if (!value.IsScalar()) {
    errors.Add(At(value.Mark()), key, "'" + key + "' must be a single value (a string)");
    return std::nullopt;
  }
  return value.Scalar();
}

// `flaky: true` marks a known flake (a waiver for the `flaky` outcome only).
std::optional<bool> FlakyValue(FileErrors& errors, const YAML::Node& value,
                               const std::string& where) {
  bool flaky = false;
  if (!value.IsScalar() || !YAML::convert<bool>::decode(value, flaky)) {
    errors.Add(At(value.Mark()), "flaky",
               where + ": 'flaky' must be true or false, got '" +
                   (value.IsScalar() ? value.Scalar() : std::string("a collection")) + "'");
    return std::nullopt;
  }
  return flaky;
}

// A profile glob must name a profile the harness knows: "tf2.16" would never apply.
void CheckProfile(FileErrors& errors, const YAML::Node& value, const std::string& where,
                  const std::string& profile, const std::vector<std::string>& known_profiles) {
  if (known_profiles.empty()) return;
  for (const std::string& known : known_profiles) {
    if (GlobMatch(profile, known)) return;
  }
  std::string message = where + ": profile '" + profile + "' matches no profile";
  if (auto suggestion = ClosestMatch(profile, known_profiles)) {
    message += " (did you mean '" + *suggestion + "'?)";
  }
  message += "; known profiles:";
  for (const std::string& known : known_profiles) message += " " + known;
  errors.Add(At(value.Mark()), "profile", message);
}

void ParseEntry(FileErrors& errors, const YAML::Node& entry, std::size_t number,
                const std::vector<std::string>& known_profiles, std::vector<Waiver>& waivers) {
  const std::string where = "waiver entry " + std::to_string(number);
  if (!entry.IsMap()) {
    errors.Add(At(entry.Mark()), "",
               where + " must be a mapping with keys id and reason (e.g. '- id: load.*')");
    return;
  }
  Waiver waiver;
  waiver.source = Location(errors.file(), At(entry.Mark()).line, At(entry.Mark()).column);
  std::set<std::string> seen;
  bool valid = true;
  auto scalar = [&](const YAML::Node& value, const std::string& key) {
    std::optional<std::string> text = ScalarValue(errors, value, key);
    valid = valid && text.has_value();
    return text.value_or("");
  };
  for (const auto& pair : entry) {
    const YAML::Node& key_node = pair.first;
    const YAML::Node& value = pair.second;
    if (!key_node.IsScalar()) {
      errors.Add(At(key_node.Mark()), "", where + ": keys must be strings");
      valid = false;
      continue;
    }
    const std::string key = key_node.Scalar();
    if (!seen.insert(key).second) {
      errors.Add(At(key_node.Mark()), key, where + ": duplicate key '" + key + "'");
      valid = false;
      continue;
    }
    if (key == "id") {
      waiver.id = scalar(value, key);
    } else if (key == "reason") {
      waiver.reason = scalar(value, key);
    } else if (key == "callback") {
      waiver.callback = scalar(value, key);
    } else if (key == "problem") {
      waiver.problem = scalar(value, key);
    } else if (key == "kernel") {
      waiver.kernel = scalar(value, key);
    } else if (key == "profile") {
      waiver.profile = scalar(value, key);
      if (value.IsScalar()) CheckProfile(errors, value, where, waiver.profile, known_profiles);
    } else if (key == "until") {
      const std::string text = scalar(value, key);
      waiver.until = ParseDate(text);
      if (value.IsScalar() && !waiver.until) {
        errors.Add(At(value.Mark()), key,
                   where + ": 'until' must be a date YYYY-MM-DD, got '" + text + "'");
        valid = false;
      }
    } else if (key == "flaky") {
      const std::optional<bool> flaky = FlakyValue(errors, value, where);
      waiver.flaky = flaky.value_or(false);
      valid = valid && flaky.has_value();
    } else {
      std::string message = where + ": unknown key '" + key + "'";
      if (auto suggestion = ClosestMatch(key, AllowedKeys())) {
        message += " (did you mean '" + *suggestion + "'?)";
      }
      message += "; allowed keys: id, reason, profile, until, callback, problem, kernel, flaky";
      errors.Add(At(key_node.Mark()), key, message);
      valid = false;
    }
  }
  // Required keys: reported at the entry, since there is no key to point at.
  const bool root_cause = seen.count("callback") != 0 || seen.count("problem") != 0;
  if (root_cause) {
    if (waiver.callback.empty() || waiver.problem.empty()) {
      errors.Add(At(entry.Mark()), waiver.callback.empty() ? "callback" : "problem",
                 where + ": a root-cause waiver needs both 'callback' and 'problem' (as the " +
                     "report's root causes name them)");
      valid = false;
    }
    if (seen.count("id") != 0) {
      errors.Add(At(entry.Mark()), "id",
                 where + ": give either 'id' or 'callback' and 'problem', not both");
      valid = false;
    }
    // A device callback's root cause is one across kernels and names none: a kernel there
    // would never match, silently leaving the failures it meant to waive.
    if (seen.count("kernel") != 0 && !waiver.callback.empty() &&
        !IsKernelCallback(waiver.callback)) {
      errors.Add(At(entry.Mark()), "kernel",
                 where + ": 'kernel' narrows the root cause of a kernel callback (create_func, " +
                     "compute_func, compute_async_func, delete_func); '" + waiver.callback +
                     "' is a device callback, whose root cause is one for every kernel");
      valid = false;
    }
  } else if (seen.count("kernel") != 0) {
    errors.Add(At(entry.Mark()), "kernel",
               where +
                   ": 'kernel' belongs to a root-cause waiver: give 'callback' and 'problem' "
                   "with it, or waive the kernel's checks by id ('kernel.<Op>.*')");
    valid = false;
  } else if (seen.count("id") == 0 || waiver.id.empty()) {
    errors.Add(At(entry.Mark()), "id",
               where + ": missing or empty 'id' (a check id glob), or 'callback' and 'problem'");
    valid = false;
  }
  if (seen.count("reason") == 0 || waiver.reason.empty()) {
    errors.Add(At(entry.Mark()), "reason",
               where + ": missing or empty 'reason' (every waiver must say why)");
    valid = false;
  }
  if (valid) waivers.push_back(std::move(waiver));
}

}  // namespace

WaiverFileError::WaiverFileError(std::string file, int line, int column, std::string key,
                                 const std::string& what)
    : UsageError(Location(file, line, column) + ": " + what),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)) {}

namespace {
std::string JoinedMessages(const std::vector<WaiverFileError>& errors) {
  std::string text;
  for (const WaiverFileError& error : errors)
    text += (text.empty() ? "" : "\n") + std::string(error.what());
  return text;
}
}  // namespace

WaiverFileError::WaiverFileError(const std::vector<WaiverFileError>& errors)
    : UsageError(JoinedMessages(errors)),
      file_(errors.at(0).file()),
      line_(errors.at(0).line()),
      column_(errors.at(0).column()),
      key_(errors.at(0).key()) {}

std::vector<Waiver> ParseWaivers(std::string_view yaml_text, const std::string& file_label,
                                 const std::vector<std::string>& known_profiles) {
  FileErrors errors(file_label);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& error) {
    errors.Add(At(error.mark), "", "invalid YAML: " + error.msg);
    errors.ThrowIfAny();
  }
  std::vector<Waiver> waivers;
  if (root.IsNull()) return waivers;  // an empty file waives nothing
  if (!root.IsSequence()) {
    errors.Add(At(root.Mark()), "",
               "the waivers file must be a YAML list of entries with keys id and reason");
    errors.ThrowIfAny();
  }
  std::size_t number = 0;
  for (const YAML::Node& entry : root) ParseEntry(errors, entry, ++number, known_profiles, waivers);
  errors.ThrowIfAny();
  return waivers;
}

std::vector<Waiver> LoadWaiverFile(const std::filesystem::path& path,
                                   const std::vector<std::string>& known_profiles) {
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
  return ParseWaivers(text.str(), path.string(), known_profiles);
}

}  // namespace conformance
