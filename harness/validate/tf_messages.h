#pragma once
// TensorFlow's validation messages, word for word (spec §3.4), in both styles.
#include <string>
#include <string_view>

#include "validate/profile.h"

namespace conformance::validate {

inline constexpr int kTfFailedPrecondition = 9;
inline constexpr int kTfNotFound = 5;
inline constexpr int kTfInternal = 13;

// The macro name TensorFlow prints for a struct (SP_StreamExecutor's has an extra '_').
std::string StructSizeMacroName(std::string_view struct_name);

std::string StructSizeNotSetMessage(MessageStyle style, std::string_view struct_name);
std::string FieldNotSetMessage(std::string_view struct_name, std::string_view field);
std::string DeviceTypeRegexMessage(std::string_view value);

// TensorFlow's device name/type rule: FullMatch of [A-Z][A-Z_]*.
bool IsValidDeviceType(std::string_view value);

}  // namespace conformance::validate
