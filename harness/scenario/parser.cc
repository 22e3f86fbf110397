#include "scenario/parser.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "model/name_syntax.h"
#include "run/did_you_mean.h"
#include "scenario/schema_keys.h"
#include "scenario/status_codes.h"
#include "scenario/yaml_tree.h"

namespace conformance::scenario {
namespace {

constexpr uint64_t kMaxRepeat = 100000;
constexpr int kMaxDevice = 1023;

Location At(const YamlNode& node) { return node.At(); }

// What a value looks like, for "expected X, got Y" messages.
std::string Shape(const YamlNode& node) {
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  if (node.IsNull() || !node.IsDefined()) return "nothing";
  return "'" + node.Scalar() + "'";
}

// Unsigned integers as people write them in scenario files: 4099, 0x1003, 64K, 1M.
std::optional<uint64_t> ParseUnsigned(std::string_view text, bool allow_suffix) {
  uint64_t multiplier = 1;
  if (allow_suffix && !text.empty()) {
    switch (text.back()) {
      case 'K': multiplier = uint64_t{1} << 10; break;
      case 'M': multiplier = uint64_t{1} << 20; break;
      case 'G': multiplier = uint64_t{1} << 30; break;
      default: break;
    }
    if (multiplier != 1) text.remove_suffix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (value > UINT64_MAX / multiplier) return std::nullopt;
  return value * multiplier;
}

class Parser {
 public:
  Parser(ErrorList& errors) : errors_(errors) {}

  // --- generic helpers; each returns false (after reporting) when the value is unusable ---

  void Error(Location at, const std::string& key, std::string message) {
    errors_.Add(at, key, std::move(message));
    ok_ = false;
  }

  // Checks keys against `allowed` and `required`; records where each key is.
  bool CheckKeys(const YamlNode& map, const std::string& what,
                 const std::vector<std::string>& allowed, const std::vector<std::string>& required,
                 std::map<std::string, Location>* where) {
    bool good = true;
    std::set<std::string> seen;
    std::set<std::string> suggested;  // a misspelt key is not also reported missing
    for (const auto& pair : map.Entries()) {
      if (!pair.first.IsScalar()) {
        Error(At(pair.first), "", what + ": keys must be plain words, got " + Shape(pair.first));
        good = false;
        continue;
      }
      const std::string key = pair.first.Scalar();
      if (!seen.insert(key).second) {
        Error(At(pair.first), key, "duplicate key in " + what);
        good = false;
        continue;
      }
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end() &&
          key == "expect_status") {
        Error(At(pair.first), key,
              what + " reports no status, so it cannot expect one; allowed keys: " +
                  JoinKeys(allowed));
        good = false;
        continue;
      }
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        if (auto match = ClosestMatch(key, allowed)) suggested.insert(*match);
        Error(At(pair.first), key,
              "unknown key in " + what + Suggestion(key, allowed) +
                  "; allowed keys: " + JoinKeys(allowed));
        good = false;
        continue;
      }
      if (where) (*where)[key] = At(pair.first);
    }
    for (const std::string& key : required) {
      if (!seen.contains(key) && !suggested.contains(key)) {
        Error(At(map), key, "missing in " + what + " (required keys: " + JoinKeys(required) + ")");
        good = false;
      }
    }
    return good;
  }

  bool Text(const YamlNode& node, const std::string& key, std::string* out) {
    if (!node.IsScalar()) {
      Error(At(node), key, "expected text, got " + Shape(node));
      return false;
    }
    *out = node.Scalar();
    return true;
  }

  bool Name(const YamlNode& node, const std::string& key, std::string* out) {
    if (!node.IsScalar() || !IsLowerSnakeName(node.Scalar())) {
      Error(At(node), key, "expected a name made of a-z, 0-9 and _, got " + Shape(node));
      return false;
    }
    *out = node.Scalar();
    return true;
  }

  bool Unsigned(const YamlNode& node, const std::string& key, uint64_t max, const std::string& what,
                uint64_t* out) {
    std::optional<uint64_t> value;
    if (node.IsScalar()) value = ParseUnsigned(node.Scalar(), false);
    if (!value || *value > max) {
      Error(At(node), key, "expected " + what + ", got " + Shape(node));
      return false;
    }
    *out = *value;
    return true;
  }

  bool ByteCount(const YamlNode& node, const std::string& key, uint64_t* out) {
    std::optional<uint64_t> value;
    if (node.IsScalar()) value = ParseUnsigned(node.Scalar(), true);
    if (!value) {
      Error(At(node), key,
            "expected a byte count (a non-negative integer, optionally with a K, M or G suffix), "
            "got " +
                Shape(node));
      return false;
    }
    *out = *value;
    return true;
  }

  bool SizeValue(const YamlNode& node, const std::string& key, bool allow_capacity, Size* out) {
    if (allow_capacity && node.IsScalar() && node.Scalar().starts_with("capacity")) {
      const std::string rest = node.Scalar().substr(8);
      if (rest.empty()) {
        *out = Size{0, true};
        return true;
      }
      if (rest[0] == '+') {
        if (auto extra = ParseUnsigned(rest.substr(1), true)) {
          *out = Size{*extra, true};
          return true;
        }
      }
      Error(At(node), key,
            "expected 'capacity' or 'capacity+N' (N a byte count), got " + Shape(node));
      return false;
    }
    uint64_t bytes = 0;
    if (!ByteCount(node, key, &bytes)) return false;
    *out = Size{bytes, false};
    return true;
  }

  bool Bytes(const YamlNode& node, const std::string& key, std::vector<uint8_t>* out) {
    if (!node.IsSequence() || node.size() == 0) {
      Error(At(node), key,
            "expected a non-empty list of byte values (0 to 255), got " + Shape(node));
      return false;
    }
    for (const YamlNode& item : node.Items()) {
      uint64_t value = 0;
      if (!Unsigned(item, key, 255, "a byte value (0 to 255)", &value)) return false;
      out->push_back(static_cast<uint8_t>(value));
    }
    return true;
  }

  bool StatusCodes(const YamlNode& node, std::vector<int>* out) {
    const std::string key = "expect_status";
    std::vector<YamlNode> items;
    if (node.IsScalar()) {
      items.push_back(node);
    } else if (node.IsSequence() && node.size() > 0) {
      for (const YamlNode& item : node.Items()) items.push_back(item);
    } else {
      Error(At(node), key,
            "expected a status code name such as OK or INVALID_ARGUMENT, or a list of them, got " +
                Shape(node));
      return false;
    }
    for (const YamlNode& item : items) {
      std::optional<int> code;
      if (item.IsScalar()) code = CodeFromName(item.Scalar());
      if (!code) {
        const std::string got = item.IsScalar() ? item.Scalar() : "";
        Error(At(item), key,
              "unknown status code " + Shape(item) + Suggestion(got, CodeNames()) +
                  "; use one of " + JoinKeys(CodeNames()));
        return false;
      }
      out->push_back(*code);
    }
    return true;
  }

  bool EventStates(const YamlNode& node, std::vector<EventState>* out) {
    static const std::vector<std::string> names = {"unknown", "pending", "complete", "error"};
    std::vector<YamlNode> items;
    if (node.IsScalar()) {
      items.push_back(node);
    } else if (node.IsSequence() && node.size() > 0) {
      for (const YamlNode& item : node.Items()) items.push_back(item);
    }
    if (items.empty()) {
      Error(At(node), "expect",
            "expected an event state (unknown, pending, complete, error) or a list of them, got " +
                Shape(node));
      return false;
    }
    for (const YamlNode& item : items) {
      const std::string text = item.IsScalar() ? item.Scalar() : "";
      const auto found = std::find(names.begin(), names.end(), text);
      if (found == names.end()) {
        Error(At(item), "expect",
              "unknown event state " + Shape(item) + Suggestion(text, names) +
                  "; use unknown, pending, complete or error");
        return false;
      }
      out->push_back(static_cast<EventState>(found - names.begin()));
    }
    return true;
  }

  bool Kind(const YamlNode& node, BufferKind* out) {
    static const std::vector<std::string> kinds = {"device", "host", "unified"};
    const std::string text = node.IsScalar() ? node.Scalar() : "";
    const auto found = std::find(kinds.begin(), kinds.end(), text);
    if (found == kinds.end()) {
      Error(At(node), "kind",
            "expected device, host or unified, got " + Shape(node) + Suggestion(text, kinds));
      return false;
    }
    *out = static_cast<BufferKind>(found - kinds.begin());
    return true;
  }

  bool Data(const YamlNode& params, Step& step) {
    int sources = 0;
    for (const char* key : {"data", "pattern", "random", "src"}) sources += step.Has(key) ? 1 : 0;
    const std::string kind = SchemaOf(step.kind).name;
    if (sources != 1) {
      const std::string options = step.kind == StepKind::kWrite ? "data, pattern or random"
                                                                : "src, data, pattern or random";
      Error(sources == 0 ? step.at : step.KeyAt(step.Has("src") ? "src" : "data"),
            sources == 0 ? "" : "data", kind + " needs exactly one source of bytes: " + options);
      return false;
    }
    HostData data;
    if (step.Has("data")) {
      data.kind = HostData::Kind::kLiteral;
      if (!Bytes(params["data"], "data", &data.bytes)) return false;
    } else if (step.Has("pattern")) {
      const YamlNode pattern = params["pattern"];
      data.kind = HostData::Kind::kPattern;
      if (!pattern.IsMap()) {
        Error(At(pattern), "pattern",
              "expected a mapping {bytes: [...], increment: N}, got " + Shape(pattern));
        return false;
      }
      if (!CheckKeys(pattern, "pattern", PatternKeys(), {"bytes"}, nullptr)) return false;
      if (!Bytes(pattern["bytes"], "bytes", &data.bytes)) return false;
      if (pattern["increment"]) {
        uint64_t increment = 0;
        if (!Unsigned(pattern["increment"], "increment", 255, "a byte value (0 to 255)",
                      &increment))
          return false;
        data.increment = static_cast<uint8_t>(increment);
      }
    } else if (step.Has("random")) {
      const YamlNode random = params["random"];
      data.kind = HostData::Kind::kRandom;
      if (!random.IsMap()) {
        Error(At(random), "random", "expected a mapping {seed_offset: N}, got " + Shape(random));
        return false;
      }
      if (!CheckKeys(random, "random", RandomKeys(), {"seed_offset"}, nullptr)) return false;
      if (!Unsigned(random["seed_offset"], "seed_offset", UINT64_MAX, "a non-negative integer",
                    &data.seed_offset)) {
        return false;
      }
    } else {
      return true;  // src: a buffer, resolved by the validator
    }
    step.data = std::move(data);
    return true;
  }

  // --- steps ---

  bool Steps(const YamlNode& node, const std::string& prefix, std::vector<Step>* out) {
    if (!node.IsSequence() || node.size() == 0) {
      Error(At(node), "steps", "expected a non-empty list of steps, got " + Shape(node));
      return false;
    }
    int index = 0;
    bool good = true;
    for (const YamlNode& item : node.Items()) {
      Step step;
      step.path = prefix + std::to_string(++index);
      if (ParseStep(item, step)) {
        out->push_back(std::move(step));
      } else {
        good = false;
      }
    }
    return good;
  }

  bool ParseStep(const YamlNode& item, Step& step) {
    step.at = At(item);
    if (!item.IsMap() || item.size() != 1) {
      Error(At(item), "",
            "step " + step.path +
                ": expected a mapping with one key, the step kind (e.g. '- allocate: {name: a, "
                "size: 16}'), got " +
                (item.IsMap() ? std::to_string(item.size()) + " keys" : Shape(item)));
      return false;
    }
    const auto pair = item.Entries().front();
    const std::string kind = pair.first.IsScalar() ? pair.first.Scalar() : "";
    step.at = At(pair.first);
    const StepSchema* schema = FindStepSchema(kind);
    if (!schema) {
      Error(step.at, kind,
            "unknown step kind" + Suggestion(kind, StepNames()) +
                "; step kinds: " + JoinKeys(StepNames()));
      return false;
    }
    step.kind = schema->kind;
    const YamlNode params = pair.second;
    if (step.kind == StepKind::kConcurrent) return Concurrent(params, step);
    if (step.kind == StepKind::kSynchronizeAllActivity && params.IsNull())
      return true;  // all defaults
    if (!params.IsMap()) {
      Error(At(params), kind,
            "expected a mapping of the step's keys (" + JoinKeys(schema->keys) + "), got " +
                Shape(params));
      return false;
    }
    if (!CheckKeys(params, kind, schema->keys, schema->required, &step.keys)) return false;

    bool good = true;
    for (const auto& [key, where] : step.keys) {
      const YamlNode value = params[key];
      if (key == "name") {
        good &= Name(value, key, &step.name);
      } else if (key == "buffer" || key == "src" || key == "dst" || key == "stream" ||
                 key == "event" || key == "dependent" || key == "other") {
        std::string* target = key == "buffer"      ? &step.buffer
                              : key == "src"       ? &step.src
                              : key == "dst"       ? &step.dst
                              : key == "stream"    ? &step.stream
                              : key == "event"     ? &step.event
                              : key == "dependent" ? &step.dependent
                                                   : &step.other;
        good &= Name(value, key, target);
      } else if (key == "size") {
        Size size;
        if (SizeValue(value, key, step.kind == StepKind::kAllocate, &size)) {
          step.size = size;
        } else {
          good = false;
        }
      } else if (key == "offset" || key == "src_offset" || key == "dst_offset") {
        uint64_t* target = key == "offset"       ? &step.offset
                           : key == "src_offset" ? &step.src_offset
                                                 : &step.dst_offset;
        good &= ByteCount(value, key, target);
      } else if (key == "kind") {
        good &= Kind(value, &step.buffer_kind);
      } else if (key == "device") {
        uint64_t device = 0;
        if (Unsigned(value, key, kMaxDevice, "a device ordinal (0 to 1023)", &device)) {
          step.device = static_cast<int>(device);
        } else {
          good = false;
        }
      } else if (key == "value") {
        const uint64_t max = step.kind == StepKind::kMemset ? 255 : UINT32_MAX;
        uint64_t value_out = 0;
        if (Unsigned(value, key, max,
                     step.kind == StepKind::kMemset ? "a byte value (0 to 255)"
                                                    : "a 32-bit value (0 to 0xffffffff)",
                     &value_out)) {
          step.value = static_cast<uint32_t>(value_out);
        } else {
          good = false;
        }
      } else if (key == "expect_status") {
        good &= StatusCodes(value, &step.expect_status);
      } else if (key == "expect") {
        good &= EventStates(value, &step.expect_event_state);
      } else if (key == "times") {
        uint64_t times = 0;
        if (Unsigned(value, key, kMaxRepeat, "a repeat count (1 to 100000)", &times) && times > 0) {
          step.times = static_cast<int>(times);
        } else {
          if (times == 0 && value.IsScalar() && ParseUnsigned(value.Scalar(), false)) {
            Error(At(value), key, "expected a repeat count (1 to 100000), got '0'");
          }
          good = false;
        }
      } else if (key == "steps") {
        good &= Steps(value, step.path + ".", &step.body);
      }
    }
    if (step.kind == StepKind::kMemcpyHtoD || step.kind == StepKind::kWrite) {
      if (good) good &= Data(params, step);
      if (good && step.kind == StepKind::kMemcpyHtoD && !step.Has("size") &&
          !(step.data && step.data->kind == HostData::Kind::kLiteral)) {
        Error(step.at, "size", "missing in memcpy_htod (only a 'data' literal implies its size)");
        good = false;
      }
    }
    if (step.kind == StepKind::kMemcpyDtoH && step.Has("dst_offset") && !step.Has("dst")) {
      Error(step.KeyAt("dst_offset"), "dst_offset",
            "needs 'dst' (without dst the read-back lands in a scratch buffer)");
      good = false;
    }
    if (step.kind == StepKind::kMemcpyHtoD && step.Has("src_offset") && !step.Has("src")) {
      Error(step.KeyAt("src_offset"), "src_offset", "needs 'src' (inline data has no offset)");
      good = false;
    }
    return good;
  }

  bool Concurrent(const YamlNode& params, Step& step) {
    if (!params.IsSequence() || params.size() < 2) {
      Error(At(params), "concurrent",
            "expected a list of at least two threads, each {steps: [...]}, got " +
                (params.IsSequence() ? "one" : Shape(params)));
      return false;
    }
    bool good = true;
    int index = 0;
    for (const YamlNode& thread : params.Items()) {
      ++index;
      if (!thread.IsMap()) {
        Error(At(thread), "concurrent",
              "thread " + std::to_string(index) + ": expected a mapping {steps: [...]}, got " +
                  Shape(thread));
        good = false;
        continue;
      }
      if (!CheckKeys(thread, "a concurrent thread", ThreadKeys(), ThreadKeys(), nullptr)) {
        good = false;
        continue;
      }
      std::vector<Step> steps;
      good &= Steps(thread["steps"], step.path + ".t" + std::to_string(index) + ".", &steps);
      step.threads.push_back(std::move(steps));
    }
    return good;
  }

  // --- scenarios and the file ---

  bool Requires(const YamlNode& node, Requirements* out) {
    out->at = At(node);
    if (!node.IsSequence()) {
      Error(At(node), "requires",
            "expected a list such as [unified_memory, devices>=2], got " + Shape(node));
      return false;
    }
    for (const YamlNode& item : node.Items()) {
      const std::string text = item.IsScalar() ? item.Scalar() : "";
      if (text == "unified_memory") {
        out->unified_memory = true;
        continue;
      }
      if (text.starts_with("devices>=")) {
        if (auto count = ParseUnsigned(std::string_view(text).substr(9), false);
            count && *count >= 1 && *count <= 1024) {
          out->devices = std::max(out->devices, static_cast<int>(*count));
          continue;
        }
      }
      Error(At(item), "requires",
            "unknown requirement " + Shape(item) +
                Suggestion(text, {"unified_memory", "devices>=2"}) +
                "; use unified_memory or devices>=N");
      return false;
    }
    return true;
  }

  bool ParseScenario(const YamlNode& node, int index, const ScenarioFile& file, Scenario* out) {
    out->at = At(node);
    if (!node.IsMap()) {
      Error(At(node), "scenarios",
            "scenario " + std::to_string(index) +
                ": expected a mapping with name, rule and steps, got " + Shape(node));
      return false;
    }
    std::map<std::string, Location> where;
    if (!CheckKeys(node, "a scenario", ScenarioKeys(), {"name", "rule", "steps"}, &where))
      return false;
    bool good = Name(node["name"], "name", &out->name);
    out->name_at = At(node["name"]);
    good &= Text(node["rule"], "rule", &out->rule);
    if (node["tensorflow"]) good &= Text(node["tensorflow"], "tensorflow", &out->tensorflow);
    if (node["fix"]) good &= Text(node["fix"], "fix", &out->fix);
    if (node["consequence"]) good &= Text(node["consequence"], "consequence", &out->consequence);
    if (out->tensorflow.empty()) out->tensorflow = defaults_tensorflow_;
    if (out->fix.empty()) out->fix = defaults_fix_;
    if (out->consequence.empty()) out->consequence = defaults_consequence_;
    for (const char* key : {"tensorflow", "fix"}) {
      if ((std::string(key) == "fix" ? out->fix : out->tensorflow).empty()) {
        Error(At(node), key,
              "missing: give it in the scenario or once at the top of the file (it documents the "
              "check)");
        good = false;
      }
    }
    if (node["requires"]) good &= Requires(node["requires"], &out->requirements);
    good &= Steps(node["steps"], "", &out->steps);
    (void)file;
    return good;
  }

  ParsedFile File(const YamlNode& root, const std::string& label, const std::string& stem) {
    ParsedFile parsed;
    parsed.file.label = label;
    parsed.file.stem = stem;
    if (!IsLowerSnakeName(stem)) {
      const std::string name = label.substr(label.find_last_of('/') + 1);
      const std::string extension = name.size() > stem.size() ? name.substr(stem.size()) : ".yaml";
      Error({}, "",
            "file name '" + stem + extension + "' must be made of a-z, 0-9 and _ before " +
                extension + " (it becomes part of check ids)");
    }
    if (!root.IsMap()) {
      Error(At(root), "",
            "expected a mapping with the key 'scenarios' (a list), got " + Shape(root));
      return parsed;
    }
    if (!CheckKeys(root, "the file", FileKeys(), {"scenarios"}, nullptr)) {
      if (!root["scenarios"]) return parsed;
    }
    if (root["tier"]) {
      std::string tier;
      if (Text(root["tier"], "tier", &tier)) {
        if (tier == "runtime" || tier == "stress") {
          parsed.file.tier = tier;
        } else {
          Error(At(root["tier"]), "tier",
                "expected runtime or stress, got '" + tier + "'" +
                    Suggestion(tier, {"runtime", "stress"}));
        }
      }
    }
    if (root["tensorflow"]) Text(root["tensorflow"], "tensorflow", &defaults_tensorflow_);
    if (root["fix"]) Text(root["fix"], "fix", &defaults_fix_);
    if (root["consequence"]) Text(root["consequence"], "consequence", &defaults_consequence_);
    const YamlNode scenarios = root["scenarios"];
    if (!scenarios.IsSequence() || scenarios.size() == 0) {
      Error(At(scenarios), "scenarios",
            "expected a non-empty list of scenarios, got " + Shape(scenarios));
      return parsed;
    }
    const bool file_ok = ok_;
    std::map<std::string, Location> names;
    int index = 0;
    for (const YamlNode& node : scenarios.Items()) {
      ok_ = true;
      Scenario scenario;
      bool good = ParseScenario(node, ++index, parsed.file, &scenario) && ok_;
      if (!scenario.name.empty()) {
        auto [it, inserted] = names.emplace(scenario.name, scenario.name_at);
        if (!inserted) {
          Error(scenario.name_at, "name",
                "duplicate scenario name '" + scenario.name + "' (first at line " +
                    std::to_string(it->second.line) + "); ids must be unique");
        }
      }
      parsed.file.scenarios.push_back(std::move(scenario));
      // A problem with the file itself (its name) makes every scenario of it unusable.
      parsed.scenario_ok.push_back(good && ok_ && file_ok);
    }
    ok_ = file_ok;
    return parsed;
  }

 private:
  ErrorList& errors_;
  bool ok_ = true;
  std::string defaults_tensorflow_;
  std::string defaults_fix_;
  std::string defaults_consequence_;
};

}  // namespace

ParsedFile ParseScenarioText(std::string_view text, const std::string& label,
                             const std::string& stem, ErrorList& errors) {
  std::optional<YamlProblem> problem;
  const YamlTree tree = YamlTree::Parse(text, &problem);
  if (problem) {
    errors.Add(problem->at, "", problem->message);
    ParsedFile parsed;
    parsed.file.label = label;
    parsed.file.stem = stem;
    return parsed;
  }
  Parser parser(errors);
  return parser.File(tree.Root(), label, stem);
}

}  // namespace conformance::scenario
