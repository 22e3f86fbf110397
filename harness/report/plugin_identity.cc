#include "report/plugin_identity.h"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
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

// Reads `size` bytes at `offset`; false when the file is shorter.
bool ReadAt(std::ifstream& in, std::uint64_t offset, void* into, std::size_t size) {
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(into), static_cast<std::streamsize>(size));
  return static_cast<std::size_t>(in.gcount()) == size;
}

// The GNU build id from the PT_NOTE segments of a 64-bit little-endian ELF file (what the
// harness loads); empty for anything else. Only the header, the program headers and the notes
// are read: a production plugin is hundreds of megabytes, its notes a few hundred bytes.
std::string BuildId(std::ifstream& in, std::uint64_t file_size) {
  Elf64_Ehdr header;
  if (!ReadAt(in, 0, &header, sizeof header)) return "";
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64)
    return "";
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    const std::uint64_t at = header.e_phoff + std::uint64_t{i} * header.e_phentsize;
    if (!ReadAt(in, at, &segment, sizeof segment)) return "";
    if (segment.p_type != PT_NOTE || segment.p_offset > file_size ||
        segment.p_filesz > file_size - segment.p_offset)
      continue;
    std::vector<unsigned char> notes(segment.p_filesz);
    if (!ReadAt(in, segment.p_offset, notes.data(), notes.size())) continue;
    std::uint64_t offset = 0;
    while (offset + sizeof(Elf64_Nhdr) <= notes.size()) {
      Elf64_Nhdr note;
      std::memcpy(&note, notes.data() + offset, sizeof note);
      const std::uint64_t name_at = offset + sizeof note;
      const std::uint64_t desc_at = name_at + ((note.n_namesz + 3) & ~3u);
      const std::uint64_t next = desc_at + ((note.n_descsz + 3) & ~3u);
      if (next > notes.size()) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(notes.data() + name_at, "GNU", 4) == 0) {
        return Hex(notes.data() + desc_at, note.n_descsz);
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
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  if (end < 0) return std::nullopt;
  PluginIdentity identity;
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::canonical(path, error);
  identity.path = error ? path : canonical.string();
  identity.size = static_cast<std::uint64_t>(end);
  identity.build_id = BuildId(in, identity.size);
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
