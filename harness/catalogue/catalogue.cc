#include "catalogue/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogue/catalogue_parser.h"

namespace conformance::catalogue_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance {
namespace {

std::vector<CheckEntry> LoadEmbeddedCatalogue() {
  std::vector<CheckEntry> all;
  try {
    for (const auto& [file, text] : catalogue_data::EmbeddedFiles()) {
      std::vector<CheckEntry> entries = ParseCatalogue(file, text);
      all.insert(all.end(), std::make_move_iterator(entries.begin()),
                 std::make_move_iterator(entries.end()));
    }
  } catch (const CatalogueError& error) {
    // The catalogue is compiled in: a malformed one is a build defect, not a user error.
    std::fprintf(stderr, "plugin_conformance: internal error in the check catalogue: %s\n",
                 error.what());
    std::abort();
  }
  std::sort(all.begin(), all.end(),
            [](const CheckEntry& a, const CheckEntry& b) { return a.id < b.id; });
  return all;
}

}  // namespace

const std::vector<CheckEntry>& Catalogue() {
  static const std::vector<CheckEntry> catalogue = LoadEmbeddedCatalogue();
  return catalogue;
}

namespace {

// Node-based, so pointers handed out by FindCheck stay valid as entries are added.
struct RunTimeChecks {
  std::mutex mutex;
  std::map<std::string, CheckEntry, std::less<>> entries;
};

RunTimeChecks& RunTime() {
  static RunTimeChecks checks;
  return checks;
}

}  // namespace

const CheckEntry* FindCheck(std::string_view id) {
  const auto& entries = Catalogue();
  auto it = std::lower_bound(
      entries.begin(), entries.end(), id,
      [](const CheckEntry& entry, std::string_view key) { return entry.id < key; });
  if (it != entries.end() && it->id == id) return &*it;
  RunTimeChecks& run_time = RunTime();
  const std::lock_guard lock(run_time.mutex);
  auto found = run_time.entries.find(id);
  return found == run_time.entries.end() ? nullptr : &found->second;
}

void AddRunTimeChecks(std::vector<CheckEntry> entries) {
  RunTimeChecks& run_time = RunTime();
  const std::lock_guard lock(run_time.mutex);
  for (CheckEntry& entry : entries) {
    const std::string id = entry.id;
    run_time.entries.insert_or_assign(id, std::move(entry));
  }
}

}  // namespace conformance
