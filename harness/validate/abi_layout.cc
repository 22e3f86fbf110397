#include "validate/abi_layout.h"

#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace conformance::validate_data {
const std::vector<std::pair<std::string_view, std::string_view>>& EmbeddedFiles();
}

namespace conformance::validate {
namespace {

void AddStructs(const nlohmann::json& structs, AbiLayout& layout) {
  for (const auto& [name, body] : structs.items()) {
    StructLayout entry;
    entry.name = name;
    entry.size_of = body.at("sizeof").get<std::size_t>();
    if (!body.at("struct_size_value").is_null()) {
      entry.struct_size_value = body.at("struct_size_value").get<std::size_t>();
    }
    for (const auto& field : body.at("fields")) {
      entry.fields.push_back({field.at("name").get<std::string>(),
                              field.at("offset").get<std::size_t>(),
                              field.at("size").get<std::size_t>()});
    }
    layout.structs.emplace(name, std::move(entry));
  }
}

AbiLayout ParseLayoutFile(std::string_view file, std::string_view text) {
  AbiLayout layout;
  layout.file = std::string(file.substr(file.rfind('/') + 1));
  const nlohmann::json json = nlohmann::json::parse(text);
  if (json.contains("structs")) AddStructs(json.at("structs"), layout);
  if (json.contains("headers")) {
    for (const auto& [header, body] : json.at("headers").items())
      AddStructs(body.at("structs"), layout);
  }
  if (json.contains("other_c_api_structs"))
    AddStructs(json.at("other_c_api_structs").at("structs"), layout);
  return layout;
}

}  // namespace

const FieldLayout& StructLayout::Field(std::string_view field) const {
  for (const auto& entry : fields) {
    if (entry.name == field) return entry;
  }
  throw std::out_of_range(name + " has no field '" + std::string(field) +
                          "' in this header generation");
}

bool StructLayout::HasField(std::string_view field) const {
  for (const auto& entry : fields) {
    if (entry.name == field) return true;
  }
  return false;
}

const StructLayout& AbiLayout::Struct(std::string_view name) const {
  auto it = structs.find(name);
  if (it == structs.end()) throw std::out_of_range(file + " has no struct " + std::string(name));
  return it->second;
}

const AbiLayout& LayoutFile(std::string_view file) {
  static std::mutex mutex;
  static std::map<std::string, AbiLayout, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(file); it != cache.end()) return it->second;
  for (const auto& [path, text] : validate_data::EmbeddedFiles()) {
    if (path.ends_with("/" + std::string(file))) {
      return cache.emplace(std::string(file), ParseLayoutFile(path, text)).first->second;
    }
  }
  throw std::out_of_range("no golden layout file named " + std::string(file));
}

}  // namespace conformance::validate
