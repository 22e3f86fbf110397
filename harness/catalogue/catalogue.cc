#include "catalogue/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogue/catalogue_parser.h"

namespace conformance::catalogue_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance {
namespace {

std::string_view FirstPart(std::string_view id) { return id.substr(0, id.find('.')); }

// The first parts of the ids a file's text may define: every `id:` line's value up to its first
// dot, found without parsing the YAML. Taking a word too many costs a parse; one too few would
// lose an entry, which CatalogueTest.LookupByPrefixFindsEveryEntry rules out.
std::set<std::string, std::less<>> IdPrefixes(std::string_view text) {
  std::set<std::string, std::less<>> prefixes;
  for (std::size_t at = text.find("id:"); at != std::string_view::npos;
       at = text.find("id:", at + 3)) {
    std::size_t start = text.find_first_not_of(" \t\"'", at + 3);
    if (start == std::string_view::npos) break;
    const std::size_t end = text.find_first_of(".\n\"' ", start);
    prefixes.emplace(text.substr(start, end == std::string_view::npos ? end : end - start));
  }
  return prefixes;
}

// The embedded entries whose id starts with `prefix` (every entry for an empty one), sorted by
// id; only the files that may hold such ids are parsed.
std::vector<CheckEntry> ParseEmbedded(std::string_view prefix) {
  std::vector<CheckEntry> entries;
  try {
    for (const auto& [file, text] : catalogue_data::EmbeddedFiles()) {
      if (!prefix.empty() && !IdPrefixes(text).contains(prefix)) continue;
      for (CheckEntry& entry : ParseCatalogue(file, text)) {
        if (prefix.empty() || FirstPart(entry.id) == prefix) entries.push_back(std::move(entry));
      }
    }
  } catch (const CatalogueError& error) {
    // The catalogue is compiled in: a malformed one is a build defect, not a user error.
    std::fprintf(stderr, "plugin_conformance: internal error in the check catalogue: %s\n",
                 error.what());
    std::abort();
  }
  std::sort(entries.begin(), entries.end(),
            [](const CheckEntry& a, const CheckEntry& b) { return a.id < b.id; });
  return entries;
}

}  // namespace

const std::vector<CheckEntry>& Catalogue() {
  static const std::vector<CheckEntry> catalogue = ParseEmbedded({});
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

namespace {

// A lookup parses only the catalogue files that may hold its id's first part (load, kernel,
// runtime, ...): a `--tier load` run's report looks up load checks alone, and kernels.yaml is
// 186 of the catalogue's 300 kB (BENCHMARKS.md, session 34). Node-based and never changed after
// insertion, so the pointers FindCheck hands out stay valid.
struct ByPrefix {
  std::mutex mutex;
  std::map<std::string, std::vector<CheckEntry>, std::less<>> entries;
};

const std::vector<CheckEntry>& EntriesFor(std::string_view prefix) {
  static ByPrefix by_prefix;
  const std::lock_guard lock(by_prefix.mutex);
  if (auto found = by_prefix.entries.find(prefix); found != by_prefix.entries.end())
    return found->second;
  return by_prefix.entries.emplace(std::string(prefix), ParseEmbedded(prefix)).first->second;
}

}  // namespace

const CheckEntry* FindCheck(std::string_view id) {
  const auto& entries = EntriesFor(FirstPart(id));
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
