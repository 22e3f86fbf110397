#include "cli/check_list.h"

#include <algorithm>

#include "model/outcome.h"

namespace conformance {

void WriteCheckList(std::ostream& out, const std::vector<std::string>& check_ids, bool verbose,
                    const CheckLookup& lookup) {
  if (!verbose) {
    for (const std::string& id : check_ids) out << id << '\n';
    return;
  }
  std::size_t width = 0;
  for (const std::string& id : check_ids) width = std::max(width, id.size());
  for (const std::string& id : check_ids) {
    out << id;
    if (const CheckEntry* entry = Lookup(lookup, id)) {
      out << std::string(width - id.size() + 2, ' ')
          << (entry->origin == Origin::kTensorFlow ? "[TensorFlow] " : "[stricter]   ")
          << entry->rule;
      if (!entry->consequence.empty()) {
        out << '\n'
            << std::string(width + 2, ' ') << "             consequence: " << entry->consequence;
      }
    }
    out << '\n';
  }
}

}  // namespace conformance
