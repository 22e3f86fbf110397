#include "cli/catalogue_json.h"

#include <map>

#include <nlohmann/json.hpp>

#include "model/outcome.h"

namespace conformance {

std::string RenderCatalogueJson(const std::vector<std::string>& check_ids,
                                const std::vector<TestUnit>& suite, const CheckLookup& lookup) {
  std::map<std::string, std::string> tier_of;
  for (const TestUnit& unit : suite) {
    for (const std::string& id : unit.check_ids) tier_of.emplace(id, unit.tier);
  }
  nlohmann::ordered_json checks = nlohmann::ordered_json::array();
  for (const std::string& id : check_ids) {
    nlohmann::ordered_json check = {{"id", id}, {"tier", tier_of[id]}};
    if (const CheckEntry* entry = Lookup(lookup, id)) {
      check["origin"] = ToString(entry->origin);
      check["rule"] = entry->rule;
      check["tensorflow"] = entry->tensorflow;
      check["fix"] = entry->fix;
    }
    checks.push_back(std::move(check));
  }
  const nlohmann::ordered_json document = {{"format_version", 1}, {"checks", checks}};
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace conformance
