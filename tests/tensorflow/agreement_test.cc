// Test 1 of real TensorFlow as ground truth: for every plugin the project builds, the verdict
// line of plugin_conformance (`--tier load`, JSON `tensorflow_verdict`) must equal what real
// TensorFlow did with it (tf_driver): loads or refuses, and for a refusal the code and the
// message character for character. TensorFlow 2.21.0 is held to the default profile, 2.15.1 to
// `--profile tf2.15`, 2.10.1 (its libraries, through the pre-2.12 route) to `--profile tf2.10`;
// every other release 2.5-2.20 from its recorded outcomes (recorded_outcomes.h), to the profile
// of its release number (`--profile 2.17.1`), which needs no TensorFlow.
// Writes the table of every comparison (docs/tensorflow/agreement.md) and fails on any
// disagreement. A verdict of ours that says it is unknown without TensorFlow (a plugin importing
// TensorFlow's C++ symbols) contradicts nothing: it is counted apart.
//
//   tensorflow_agreement_test --driver TF_DRIVER --conformance PLUGIN_CONFORMANCE
//     --release VERSION=TENSORFLOW_DIR=PROFILE ... --markdown OUT.md --work DIR
//     [--plugin-dir FAMILY=DIR ...] [--plugin NAME=PATH ...]
//     [--load-defects DIR=EXPECTATIONS.yaml] [--mock-plugin PATH=MOCK_FAULTS.yaml]
//     [--build-dir DIR] [--jobs N] [--open OPEN_DISAGREEMENTS.txt]
//     [--recorded RECORDED/VERSION.jsonl ...] [--record DIR --record-command TEXT]
//
// --recorded compares a release from its record instead of running tf_driver. --record writes
// each --release's tf_driver outcomes to DIR/VERSION.jsonl (specs/profiles/audit/load_verdicts.py
// runs it so, with TEXT the command that re-records the release).
//
// --open names disagreements found and not fixed yet, one a line: "RELEASE PLUGIN | ISSUE".
// They are debt, not explanations: the table marks them "no (open)", the test fails on any
// other disagreement and on a listed one that agrees now (so the list only shrinks).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "expectations.h"
#include "process_pool.h"
#include "recorded_outcomes.h"
#include "skip.h"
#include "installed_tensorflow/verdicts.h"

namespace tensorflow_agreement {

using tensorflow_driver::Agree;
using tensorflow_driver::FromConformance;
using tensorflow_driver::FromDriver;
using tensorflow_driver::Verdict;
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Case {
  std::string name;  // FAMILY/PLUGIN, unique
  std::string path;
  std::string co_load;
  std::map<std::string, std::string> env;
};

Case MakeCase(std::string name, std::string path, std::string co_load = "",
              std::map<std::string, std::string> env = {}) {
  Case made;
  made.name = std::move(name);
  made.path = std::move(path);
  made.co_load = std::move(co_load);
  made.env = std::move(env);
  return made;
}

struct Release {
  std::string version;
  std::string tensorflow_dir;
  std::string profile;
  std::optional<RecordedRelease> recorded;  // TensorFlow's outcomes from a record, not tf_driver
};

struct Options {
  std::string driver;
  std::string conformance;
  std::vector<Release> releases;
  std::vector<std::string> recorded;  // record files, read once --build-dir is known
  std::string record_dir;
  std::string record_command;
  std::string markdown;
  std::string work;
  std::string build_dir;
  std::string profiles_dir;  // specs/profiles: which profile a release number stands for
  int jobs = 2;
  std::vector<Case> cases;
  std::map<std::string, std::string> open;  // "RELEASE PLUGIN" -> the issue to fix
};

std::string Key(const std::string& release, const std::string& plugin) {
  return release + " " + plugin;
}

std::map<std::string, std::string> ReadOpenDisagreements(const std::string& path) {
  std::map<std::string, std::string> open;
  std::istringstream lines(ReadFile(path));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.starts_with("#")) continue;
    const std::size_t bar = line.find(" | ");
    if (bar == std::string::npos) throw std::runtime_error(path + ": no ' | ISSUE' in: " + line);
    open[line.substr(0, bar)] = line.substr(bar + 3);
  }
  return open;
}

std::pair<std::string, std::string> SplitAt(const std::string& text, char separator) {
  const std::size_t at = text.find(separator);
  if (at == std::string::npos)
    throw std::runtime_error("expected '" + std::string(1, separator) + "' in " + text);
  return {text.substr(0, at), text.substr(at + 1)};
}

void AddPluginDir(const std::string& family, const std::string& dir, std::vector<Case>& cases) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".so") names.push_back(entry.path().stem());
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names)
    cases.push_back(MakeCase(family + "/" + name, dir + "/" + name + ".so"));
}

// The load-defect family's runs with two plugins (--co-load): TensorFlow loads the other
// plugin first, then this one, in one process.
void AddCoLoads(const std::string& dir, const std::string& expectations, std::vector<Case>& cases) {
  const load_defects::ExpectationTable table = load_defects::LoadExpectations(expectations);
  for (const auto* list : {&table.passing, &table.defects}) {
    for (const load_defects::Expectation& entry : *list) {
      const auto co_load = std::find(entry.args.begin(), entry.args.end(), "--co-load");
      if (co_load == entry.args.end() || co_load + 1 == entry.args.end()) continue;
      cases.push_back(MakeCase("load_defects/" + entry.name + " (after " + *(co_load + 1) + ")",
                               dir + "/" + entry.variant + ".so",
                               dir + "/" + *(co_load + 1) + ".so"));
    }
  }
}

// Each distinct MOCK_PLUGIN_CONFIG of the mock plugin's fault table, named after its first entry.
void AddMockFaults(const std::string& plugin, const std::string& faults, std::vector<Case>& cases) {
  const load_defects::ExpectationTable table = load_defects::LoadExpectations(faults);
  std::set<std::string> seen;
  for (const auto* list : {&table.passing, &table.defects}) {
    for (const load_defects::Expectation& entry : *list) {
      if (!entry.mock || !seen.insert(*entry.mock).second) continue;
      cases.push_back(
          MakeCase("mock/" + entry.name, plugin, "", {{"MOCK_PLUGIN_CONFIG", *entry.mock}}));
    }
  }
}

Options Parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--driver") {
      options.driver = value;
    } else if (flag == "--conformance") {
      options.conformance = value;
    } else if (flag == "--release") {
      const auto [version, rest] = SplitAt(value, '=');
      const auto [dir, profile] = SplitAt(rest, '=');
      options.releases.push_back({version, dir, profile, std::nullopt});
    } else if (flag == "--profiles") {
      options.profiles_dir = value;
    } else if (flag == "--recorded") {
      options.recorded.push_back(value);
    } else if (flag == "--record") {
      options.record_dir = value;
    } else if (flag == "--record-command") {
      options.record_command = value;
    } else if (flag == "--markdown") {
      options.markdown = value;
    } else if (flag == "--work") {
      options.work = value;
    } else if (flag == "--build-dir") {
      options.build_dir = value;
    } else if (flag == "--open") {
      options.open = ReadOpenDisagreements(value);
    } else if (flag == "--jobs") {
      options.jobs = std::stoi(value);
    } else if (flag == "--plugin-dir") {
      const auto [family, dir] = SplitAt(value, '=');
      AddPluginDir(family, dir, options.cases);
    } else if (flag == "--plugin") {
      const auto [name, path] = SplitAt(value, '=');
      options.cases.push_back(MakeCase(name, path));
    } else if (flag == "--load-defects") {
      const auto [dir, expectations] = SplitAt(value, '=');
      AddCoLoads(dir, expectations, options.cases);
    } else if (flag == "--mock-plugin") {
      const auto [plugin, faults] = SplitAt(value, '=');
      AddMockFaults(plugin, faults, options.cases);
    } else {
      throw std::runtime_error("unknown option " + flag);
    }
  }
  for (const std::string& path : options.recorded) {
    Release release;
    release.recorded = ReadRecordedRelease(path, options.build_dir);
    release.version = release.recorded->release;
    release.profile = release.version;  // --profile by release number
    options.releases.push_back(std::move(release));
  }
  return options;
}

struct Comparison {
  std::string plugin;
  std::string release;
  bool recorded = false;  // TensorFlow's outcome is the release's record
  Verdict tensorflow;
  Verdict ours;
};

// One release's counts: the comparisons that agree, that are unknown without TensorFlow, that
// disagree and are listed as open, and that disagree unlisted.
struct Tally {
  int agree = 0;
  int unknown_here = 0;
  int open = 0;
  int disagree = 0;
};

std::map<std::string, Tally> TallyByRelease(const Options& options,
                                            const std::vector<Comparison>& rows) {
  std::map<std::string, Tally> tallies;
  for (const Comparison& row : rows) {
    Tally& tally = tallies[row.release];
    if (Agree(row.tensorflow, row.ours)) {
      ++tally.agree;
    } else if (!Contradicts(row.tensorflow, row.ours)) {
      ++tally.unknown_here;
    } else if (options.open.contains(Key(row.release, row.plugin))) {
      ++tally.open;
    } else {
      ++tally.disagree;
    }
  }
  return tallies;
}

void PrintPerRelease(const Options& options, const std::vector<Comparison>& rows) {
  const std::map<std::string, Tally> tallies = TallyByRelease(options, rows);
  for (const Release& release : options.releases) {
    const Tally& tally = tallies.at(release.version);
    std::cout << "  " << release.version << (release.recorded ? " (recorded)" : "") << ": "
              << tally.agree << " agree, " << tally.unknown_here << " unknown here, " << tally.open
              << " open, " << tally.disagree << " disagree\n";
  }
}

std::string Cell(std::string text, const std::string& build_dir) {
  // Paths in dlopen's messages: the build folder varies between machines.
  for (std::size_t at; !build_dir.empty() && (at = text.find(build_dir)) != std::string::npos;) {
    text.replace(at, build_dir.size(), "<build>");
  }
  for (std::size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) {
    text.replace(at, 1, "\\|");
  }
  for (std::size_t at = 0; (at = text.find('\n', at)) != std::string::npos;) {
    text.replace(at, 1, "<br>");
  }
  return text;
}

void WriteMarkdown(const Options& options, const std::vector<Comparison>& rows) {
  fs::create_directories(fs::path(options.markdown).parent_path());
  std::ofstream out(options.markdown);
  if (!out) throw std::runtime_error("cannot write " + options.markdown);
  std::size_t agreeing = 0;
  std::size_t undecided = 0;
  for (const Comparison& row : rows) {
    agreeing += Agree(row.tensorflow, row.ours);
    undecided += !Agree(row.tensorflow, row.ours) && !Contradicts(row.tensorflow, row.ours);
  }
  out << "# Verdict agreement with real TensorFlow\n\n"
         "Generated by `tests/tensorflow/agreement_test.cc` (CTest `tensorflow.agreement`); do "
         "not edit.\nEvery plugin the project builds, loaded into the real TensorFlow wheel "
         "by `tf_driver` (TensorFlow's outcome) and run through `plugin_conformance --tier load` "
         "(ours: its `tensorflow_verdict`). ";
  for (const Release& release : options.releases) {
    out << "TensorFlow " << release.version;
    if (release.recorded) {
      out << " (recorded " << release.recorded->recorded << " by `" << release.recorded->command
          << "`, in `tests/tensorflow/recorded/" << release.version << ".jsonl`)";
    }
    out << " is compared with `--profile " << release.profile << "`. ";
  }
  out << "A refusal agrees when its TF_Code and message are equal character for character, "
         "or, where the status is the plugin's own (an init function that cannot open a library "
         "of its own there: load.opened_libraries), when TensorFlow's message carries the cause "
         "the suite names (dlopen's text). One exception to character for character: an "
         "allowed-type list (`allowed=[DT_..., ...]`) in which TensorFlow printed a number among "
         "the DT_ names (2.10.1 prints Mean's T with one number in place of 7 of its 17 types) "
         "agrees when its DT_ names are the suite's in the same order, each number standing for "
         "one or more of the suite's (`AgreementVerdicts.*`). "
         "TensorFlow's outcome includes the plugin's first use: its devices, created by the first "
         "eager context, and the registries, finalized by the first op; a status TensorFlow "
         "returns or aborts with there is a refusal. \"dies\" is a plugin that crashes or hangs "
         "while TensorFlow loads it or creates its devices: TensorFlow's process dies with it, "
         "and the suite reports that crash or timeout (or a NULL callback TensorFlow calls "
         "unchecked) as the verdict.\n\n"
      << agreeing << " of " << rows.size() << " comparisons agree, " << undecided
      << " are unknown without TensorFlow (ours says so; no contradiction). \"no (open)\": "
         "found and not fixed yet "
         "(`tests/tensorflow/open_disagreements.txt` says what is to be fixed).\n\n"
      << "| release | agree | unknown here | no (open) | no |\n|---|---|---|---|---|\n";
  const std::map<std::string, Tally> tallies = TallyByRelease(options, rows);
  for (const Release& release : options.releases) {
    const Tally& tally = tallies.at(release.version);
    out << "| " << release.version << (release.recorded ? " (recorded)" : "") << " | "
        << tally.agree << " | " << tally.unknown_here << " | " << tally.open << " | "
        << tally.disagree << " |\n";
  }
  out << "\nA recorded release's outcomes are tf_driver's, measured on that release's libraries "
         "(specs/profiles/audit/load_verdicts.py, not run in CI) and compared again on every run "
         "(no TensorFlow needed for them); a plugin added since "
         "the release was recorded is \"unknown: not recorded\", a disagreement until the "
         "release is re-recorded.\n\n"
      << "| plugin | release | TensorFlow's outcome | ours | agree |\n|---|---|---|---|---|\n";
  for (const Comparison& row : rows) {
    out << "| " << Cell(row.plugin, options.build_dir) << " | " << row.release
        << (row.recorded ? " (recorded)" : "") << " | "
        << Cell(row.tensorflow.Describe(), options.build_dir) << " | "
        << Cell(row.ours.Describe(), options.build_dir) << " | "
        << (Agree(row.tensorflow, row.ours)                       ? "yes"
            : !Contradicts(row.tensorflow, row.ours)              ? "unknown here"
            : options.open.contains(Key(row.release, row.plugin)) ? "**no** (open)"
                                                                  : "**no**")
        << " |\n";
  }
}

// The profile `--profile value` stands for: a profile's name as it is, a release number ("2.17.1")
// the profile of specs/profiles whose `releases` range ("2.16-2.18", "2.11") holds its minor
// release; the value itself when none does (plugin_conformance then says why).
std::string ProfileNameOf(const std::string& value, const std::string& profiles_dir) {
  const auto minor_of = [](const std::string& release) {
    const std::size_t first = release.find('.');
    const std::size_t second = release.find('.', first + 1);
    return first == std::string::npos ? -1
                                      : std::stoi(release.substr(first + 1, second - first - 1));
  };
  if (profiles_dir.empty() || value.empty() ||
      !std::isdigit(static_cast<unsigned char>(value[0]))) {
    return value;
  }
  const int minor = minor_of(value);
  for (const auto& entry : fs::directory_iterator(profiles_dir)) {
    if (entry.path().extension() != ".yaml") continue;
    const YAML::Node profile = YAML::LoadFile(entry.path().string());
    if (!profile["releases"] || !profile["name"]) continue;
    const std::string releases = profile["releases"].as<std::string>();
    const std::size_t dash = releases.find('-');
    const int from = minor_of(releases.substr(0, dash));
    const int to = dash == std::string::npos ? from : minor_of(releases.substr(dash + 1));
    if (minor >= from && minor <= to) return profile["name"].as<std::string>();
  }
  return value;
}

// Where TensorFlow is given the plugin. A plugin whose RUNPATH reaches the wheel's python folder
// from <site-packages>/tensorflow-plugins ($ORIGIN/../tensorflow/python, read as the bytes of its
// dynamic string table) is copied there, as pip installs it, beside a link to the release's
// package folder: only from there does TensorFlow 2.19-2.21, whose
// _pywrap_tensorflow_internal.so has no SONAME, find that library (measured on 2.21.0 in
// Python), and the suite judges it as installed there (harness/validate/pywrap_reach.h).
std::string PathGivenToTensorFlow(const Case& plugin, const Release& release,
                                  const std::string& dir) {
  std::ifstream file(plugin.path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.find("$ORIGIN/../tensorflow/python") == std::string::npos) return plugin.path;
  const fs::path site = fs::path(dir) / "site-packages";
  fs::create_directories(site / "tensorflow-plugins");
  std::error_code ignored;
  fs::remove(site / "tensorflow", ignored);
  fs::create_directory_symlink(fs::absolute(release.tensorflow_dir), site / "tensorflow");
  const fs::path installed = site / "tensorflow-plugins" / fs::path(plugin.path).filename();
  fs::copy_file(plugin.path, installed, fs::copy_options::overwrite_existing);
  return installed.string();
}

// Every command of one release: tf_driver in `jobs` batches (TensorFlow loaded once per batch,
// each plugin in a child forked from it), and, with `run_ours`, plugin_conformance once per
// plugin (releases of one profile share the first one's reports: the verdict depends on the
// profile alone, and 188 plugins x 14 recorded releases took 19 minutes).
void AddCommands(const Options& options, const Release& release, const std::string& dir,
                 bool run_ours, std::vector<Command>& commands) {
  fs::create_directories(dir);
  std::vector<std::ofstream> batches;
  for (int shard = 0; !release.recorded && shard < options.jobs; ++shard) {
    const std::string requests = dir + "/requests." + std::to_string(shard) + ".jsonl";
    batches.emplace_back(requests);
    Command driver;
    driver.argv = {options.driver, "--tensorflow", release.tensorflow_dir,
                   "--timeout-ms", "8000",         "--batch"};
    driver.stdin_file = requests;
    driver.stdout_file = dir + "/driver." + std::to_string(shard) + ".jsonl";
    driver.stderr_file = dir + "/driver." + std::to_string(shard) + ".log";
    commands.push_back(std::move(driver));
  }
  for (std::size_t i = 0; i < options.cases.size(); ++i) {
    const Case& plugin = options.cases[i];
    json request = {
        {"name", plugin.name},
        {"path", release.recorded ? plugin.path : PathGivenToTensorFlow(plugin, release, dir)},
        {"env", plugin.env}};
    if (!plugin.co_load.empty()) request["co_load"] = plugin.co_load;
    if (!batches.empty()) batches[i % batches.size()] << request.dump() << '\n';
    if (!run_ours) continue;
    Command run;
    run.argv = {options.conformance,
                plugin.path,
                "--tier",
                "load",
                "--profile",
                release.profile,
                "--timeout",
                "3000",
                "--json",
                dir + "/report." + std::to_string(i) + ".json"};
    run.env = plugin.env;
    if (!plugin.co_load.empty()) {
      run.argv.insert(run.argv.end(), {"--co-load", plugin.co_load});
    }
    commands.push_back(std::move(run));
  }
}

// TensorFlow's outcome per plugin: tf_driver's results, or the release's record.
std::map<std::string, json> Driven(const Options& options, const Release& release,
                                   const std::string& dir) {
  if (release.recorded) return release.recorded->outcomes;
  // A plugin run from its installed copy (PathGivenToTensorFlow) is named by its own path, so
  // that dlerror texts read as for the plugin_conformance run and the record.
  std::map<std::string, std::string> path_of;
  for (const Case& plugin : options.cases) path_of[plugin.name] = plugin.path;
  const fs::path installed_dir = fs::path(dir) / "site-packages" / "tensorflow-plugins";
  std::map<std::string, json> driven;
  for (int shard = 0; shard < options.jobs; ++shard) {
    std::istringstream lines(ReadFile(dir + "/driver." + std::to_string(shard) + ".jsonl"));
    for (std::string line; std::getline(lines, line);) {
      json result = json::parse(line, nullptr, false);
      if (result.is_discarded()) continue;
      if (auto it = path_of.find(result.value("name", "")); it != path_of.end()) {
        const std::string installed = (installed_dir / fs::path(it->second).filename()).string();
        for (std::size_t at = line.find(installed); at != std::string::npos;
             at = line.find(installed, at + it->second.size())) {
          line.replace(at, installed.size(), it->second);
        }
        result = json::parse(line, nullptr, false);
      }
      if (!result.is_discarded()) driven[result.value("name", "")] = result;
    }
  }
  return driven;
}

std::vector<Comparison> Compare(const Options& options, const Release& release,
                                const std::string& dir, const std::string& reports_dir) {
  const std::map<std::string, json> driven = Driven(options, release, dir);
  std::vector<Comparison> rows;
  for (std::size_t i = 0; i < options.cases.size(); ++i) {
    const Case& plugin = options.cases[i];
    Comparison row;
    row.plugin = plugin.name;
    row.release = release.version;
    row.recorded = release.recorded.has_value();
    if (auto it = driven.find(plugin.name); it != driven.end()) {
      row.tensorflow = FromDriver(it->second);
    } else if (release.recorded) {
      row.tensorflow.message = "not recorded (re-record: " + release.recorded->command + ")";
    } else {
      row.tensorflow.message = "tf_driver reported nothing (see " + dir + "/driver.*.log)";
    }
    const json report = json::parse(
        ReadFile(reports_dir + "/report." + std::to_string(i) + ".json"), nullptr, false);
    if (report.is_discarded()) {
      row.ours.message = "plugin_conformance wrote no JSON report";
    } else {
      row.ours = FromConformance(report);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// "2.21.0" before "2.9.3": the table lists a plugin's releases newest first.
bool NewerRelease(const std::string& a, const std::string& b) {
  std::istringstream left(a);
  std::istringstream right(b);
  for (std::string x, y; std::getline(left, x, '.') && std::getline(right, y, '.');) {
    if (std::stoi(x) != std::stoi(y)) return std::stoi(x) > std::stoi(y);
  }
  return false;
}

int Run(const Options& options) {
  for (const Release& release : options.releases) {
    if (!release.recorded && release.tensorflow_dir.empty()) {
      return tensorflow_tests::SkipOrFail("TensorFlow " + release.version +
                                          " is not configured (its CMake cache variable is empty)");
    }
  }
  std::vector<Command> commands;
  std::map<std::string, std::string> reports_of_profile;
  std::vector<std::string> reports_dirs;
  for (const Release& release : options.releases) {
    const std::string dir = options.work + "/" + release.version;
    const auto [first, added] =
        reports_of_profile.try_emplace(ProfileNameOf(release.profile, options.profiles_dir), dir);
    reports_dirs.push_back(first->second);
    AddCommands(options, release, dir, added, commands);
  }
  RunAll(commands, options.jobs);
  for (const Release& release : options.releases) {
    if (options.record_dir.empty() || release.recorded) continue;
    const std::map<std::string, json> driven =
        Driven(options, release, options.work + "/" + release.version);
    if (driven.size() != options.cases.size()) {
      throw std::runtime_error(
          "TensorFlow " + release.version + " not recorded: tf_driver reported " +
          std::to_string(driven.size()) + " of " + std::to_string(options.cases.size()) +
          " plugins (see " + options.work + "/" + release.version + "/driver.*.log)");
    }
    std::vector<json> results;
    results.reserve(driven.size());
    for (const auto& entry : driven) results.push_back(entry.second);
    fs::create_directories(options.record_dir);
    WriteRecordedRelease(options.record_dir + "/" + release.version + ".jsonl", release.version,
                         options.record_command, results, options.build_dir);
  }
  std::vector<Comparison> rows;
  for (std::size_t r = 0; r < options.releases.size(); ++r) {
    const Release& release = options.releases[r];
    auto compared =
        Compare(options, release, options.work + "/" + release.version, reports_dirs[r]);
    rows.insert(rows.end(), compared.begin(), compared.end());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Comparison& a, const Comparison& b) {
    return a.plugin != b.plugin ? a.plugin < b.plugin : NewerRelease(a.release, b.release);
  });
  if (!options.markdown.empty()) WriteMarkdown(options, rows);
  int failures = 0;
  int open = 0;
  int agreeing = 0;
  int undecided = 0;
  for (const Comparison& row : rows) {
    const bool listed = options.open.contains(Key(row.release, row.plugin));
    if (Agree(row.tensorflow, row.ours) || !Contradicts(row.tensorflow, row.ours)) {
      if (Agree(row.tensorflow, row.ours)) {
        ++agreeing;
      } else {
        ++undecided;
      }
      if (listed) {
        ++failures;
        std::cout << "AGREES NOW (remove it from the open list): " << Key(row.release, row.plugin)
                  << "\n";
      }
      continue;
    }
    if (listed) {
      ++open;
      continue;
    }
    ++failures;
    std::cout << "DISAGREE " << row.plugin << " on TensorFlow " << row.release
              << "\n  TensorFlow: " << row.tensorflow.Describe()
              << "\n  ours:       " << row.ours.Describe() << "\n";
  }
  std::cout << agreeing << " of " << rows.size() << " comparisons agree, " << undecided
            << " unknown without TensorFlow, " << open << " open";
  if (!options.markdown.empty()) std::cout << "; table: " << options.markdown;
  std::cout << "\n";
  PrintPerRelease(options, rows);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tensorflow_agreement

int main(int argc, char** argv) {
  try {
    return tensorflow_agreement::Run(tensorflow_agreement::Parse(argc, argv));
  } catch (const std::exception& error) {
    std::cerr << "tensorflow_agreement_test: " << error.what() << '\n';
    return 1;
  }
}
