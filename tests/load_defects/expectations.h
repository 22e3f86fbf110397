#pragma once
// expectations.yaml, the load check catalogue and the list of built variants, as the tests of
// tests/load_defects read them.
#include <optional>
#include <string>
#include <vector>

namespace load_defects {

// One run of plugin_conformance on one plugin and what it must report.
struct Expectation {
  std::string name;                    // test name; unique
  std::string variant;                 // plugin <LOAD_DEFECTS_DIR>/<variant>.so; or empty and
  std::optional<std::string> mock;     // libmock_plugin.so with this MOCK_PLUGIN_CONFIG
  std::vector<std::string> args;       // extra arguments as written (--co-load takes a variant)
  std::string check;                   // the check that must catch it; empty for a passing run
  std::string outcome;                 // fail | warning | crash | timeout; "pass" for a passing run
  std::optional<std::string> message;  // exact
  std::optional<std::string> contains;  // case-insensitive substring
  std::optional<int> tf_code;
  std::optional<std::string> failing_call;  // details["failing_call"] of the result

  bool passing() const { return check.empty(); }
  bool is_mock() const { return mock.has_value(); }
  int ExpectedExitCode() const;
};

struct Uncovered {
  std::string check;
  std::string reason;
};

struct ExpectationTable {
  std::vector<Expectation> passing;
  std::vector<Expectation> defects;
  std::vector<Uncovered> uncovered;
};

// Throws std::runtime_error naming the file and the entry when the table is malformed.
ExpectationTable LoadExpectations(const std::string& path = LOAD_DEFECTS_EXPECTATIONS);

// Every check id of a catalogue file, `{each}` entries expanded to one id per value, in file
// order. Throws std::runtime_error on a malformed file.
std::vector<std::string> LoadCatalogueIds(const std::string& path = LOAD_CHECK_CATALOGUE);

// The variants this build produced (built_variants.txt written by CMake).
std::vector<std::string> BuiltVariants(const std::string& path = LOAD_DEFECTS_BUILT_VARIANTS);

std::string PluginPath(const std::string& variant);

// The expectation's args with every variant name after --co-load replaced by its path.
std::vector<std::string> ResolvedArgs(const Expectation& expectation);

// Variants an expectation uses: its own (none for a mock) and the co-loaded ones.
std::vector<std::string> VariantsUsed(const Expectation& expectation);

}  // namespace load_defects
