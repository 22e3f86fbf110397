#include "validate/generation_diagnosis.h"

#include <vector>

#include "validate/header_generation.h"

namespace conformance::validate {
namespace {

// The newest-first generation list names the fields a newer generation added to a struct.
std::string FieldsMissingFrom(const StructLayout& older, const StructLayout& newer) {
  std::string names;
  for (const FieldLayout& field : newer.fields) {
    if (!older.HasField(field.name)) names += (names.empty() ? "" : "/") + field.name;
  }
  return names;
}

const FieldLayout* FieldAt(const StructLayout& layout, std::size_t offset) {
  for (const FieldLayout& field : layout.fields) {
    if (field.offset == offset) return &field;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> LayoutShiftDiagnosis(const Profile& core,
                                                const StructBuffer& stream_executor,
                                                std::uint64_t platform_struct_size,
                                                std::string_view field) {
  const StructLayout& core_layout = stream_executor.layout();
  const std::uint64_t written = stream_executor.StructSize();
  const auto by_size = GenerationsHaving("SP_StreamExecutor", written);
  if (by_size.empty()) return std::nullopt;
  const StructLayout& plugin_layout = by_size.front()->layout->Struct("SP_StreamExecutor");
  if (plugin_layout.size_of == core_layout.size_of) return std::nullopt;

  GenerationInference inference =
      InferGeneration({{"SP_StreamExecutor", written}, {"SP_Platform", platform_struct_size}});
  if (!inference.known()) inference.candidates = by_size;
  const std::string built = "built against " + inference.Headers() +
                            " headers (SP_StreamExecutor.struct_size " + std::to_string(written) +
                            ")";
  const std::string name(field);
  if (!plugin_layout.HasField(name)) {
    // An older plugin under a newer core: the callback does not exist in its headers.
    return built + "; " + core.headers + " refuses it because `" + name +
           "` is NULL; rebuild against " + core.headers + " headers and fill " +
           FieldsMissingFrom(plugin_layout, core_layout);
  }
  // A newer plugin under an older core: the field moved; the core reads another one there.
  const std::size_t offset = core_layout.Field(name).offset;
  const FieldLayout* there = FieldAt(plugin_layout, offset);
  return built + "; " + core.headers + " reads `" + name + "` at offset " + std::to_string(offset) +
         (there != nullptr ? ", where those headers put `" + there->name + "`" : "") +
         ", so the NULL comes from the layout shift, not from a missing callback; build against " +
         core.headers + " headers to support this release";
}

}  // namespace conformance::validate
