#pragma once
// Sentences a vendor can act on when the plugin's header generation and the emulated core's
// differ: why a required SP_StreamExecutor field reads NULL (the plugin's headers lack it, or
// put something else at that offset), and what to rebuild against.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "validate/profile.h"
#include "validate/struct_buffer.h"

namespace conformance::validate {

// For a required SP_StreamExecutor `field` the core read as NULL: the layout shift behind it,
// or nullopt when the plugin's struct_size names the core's own layout (a plain omission).
// `platform_struct_size` is what the plugin wrote into SP_Platform (more evidence).
std::optional<std::string> LayoutShiftDiagnosis(const Profile& core,
                                                const StructBuffer& stream_executor,
                                                std::uint64_t platform_struct_size,
                                                std::string_view field);

}  // namespace conformance::validate
