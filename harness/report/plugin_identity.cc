#include "report/plugin_identity.h"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace conformance {
namespace {

std::string Hex(const unsigned char* bytes, std::size_t count) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    text += kDigits[bytes[i] >> 4];
    text += kDigits[bytes[i] & 0xf];
  }
  return text;
}

// The GNU build id from the PT_NOTE segments of a 64-bit little-endian ELF file (what the
// harness loads); empty for anything else.
std::string BuildId(const std::vector<unsigned char>& file) {
  Elf64_Ehdr header;
  if (file.size() < sizeof header) return "";
  std::memcpy(&header, file.data(), sizeof header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64)
    return "";
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    const std::uint64_t at = header.e_phoff + std::uint64_t{i} * header.e_phentsize;
    if (at + sizeof segment > file.size()) return "";
    std::memcpy(&segment, file.data() + at, sizeof segment);
    if (segment.p_type != PT_NOTE || segment.p_offset + segment.p_filesz > file.size()) continue;
    std::uint64_t offset = segment.p_offset;
    const std::uint64_t end = segment.p_offset + segment.p_filesz;
    while (offset + sizeof(Elf64_Nhdr) <= end) {
      Elf64_Nhdr note;
      std::memcpy(&note, file.data() + offset, sizeof note);
      const std::uint64_t name_at = offset + sizeof note;
      const std::uint64_t desc_at = name_at + ((note.n_namesz + 3) & ~3u);
      const std::uint64_t next = desc_at + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(file.data() + name_at, "GNU", 4) == 0) {
        return Hex(file.data() + desc_at, note.n_descsz);
      }
      offset = next;
    }
  }
  return "";
}

}  // namespace

std::optional<PluginIdentity> IdentifyPlugin(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  PluginIdentity identity;
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::canonical(path, error);
  identity.path = error ? path : canonical.string();
  identity.size = file.size();
  identity.build_id = BuildId(file);
  return identity;
}

void AddIdentityToContext(const PluginIdentity& identity,
                          void (*add)(const std::string& key, const std::string& value)) {
  add("plugin_path", identity.path);
  add("plugin_size", std::to_string(identity.size));
  add("plugin_build_id", identity.build_id);
}

std::optional<PluginIdentity> IdentityFromBenchJson(const nlohmann::json& document) {
  if (!document.is_object() || !document.contains("context")) return std::nullopt;
  const nlohmann::json& context = document["context"];
  if (!context.is_object() || !context.contains("plugin_path") ||
      !context["plugin_path"].is_string())
    return std::nullopt;
  PluginIdentity identity;
  identity.path = context["plugin_path"].get<std::string>();
  const std::string size = context.value("plugin_size", std::string("0"));
  identity.size = std::strtoull(size.c_str(), nullptr, 10);
  identity.build_id = context.value("plugin_build_id", std::string());
  return identity;
}

std::string IdentityMismatch(const PluginIdentity& recorded, const PluginIdentity& tested) {
  if (!recorded.build_id.empty() && !tested.build_id.empty()) {
    if (recorded.build_id == tested.build_id) return "";
    return "it measured " + recorded.path + " (build id " + recorded.build_id +
           "), not this plugin (build id " + tested.build_id + ")";
  }
  const std::string recorded_name = std::filesystem::path(recorded.path).filename().string();
  const std::string tested_name = std::filesystem::path(tested.path).filename().string();
  if (recorded.size == tested.size && recorded_name == tested_name) return "";
  return "it measured " + recorded.path + " (" + std::to_string(recorded.size) +
         " bytes), not this plugin, " + tested.path + " (" + std::to_string(tested.size) +
         " bytes)";
}

}  // namespace conformance
