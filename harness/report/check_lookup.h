#pragma once
// How reporters find a check's catalogue entry (origin, rule, fix hint). Injected rather
// than linked so the reporters work without the catalogue (tests, partial builds); an
// empty function or a nullptr answer just means "not in the catalogue".
#include <functional>
#include <string_view>

#include "catalogue/catalogue.h"

namespace conformance {

using CheckLookup = std::function<const CheckEntry*(std::string_view check_id)>;

inline const CheckEntry* Lookup(const CheckLookup& lookup, std::string_view check_id) {
  return lookup ? lookup(check_id) : nullptr;
}

}  // namespace conformance
