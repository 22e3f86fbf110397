#include "validate/struct_overflow_facts.h"

namespace conformance::validate {
namespace {

using enum PastEndValue;

// Measured with libmock_plugin.so (write_past_end=STRUCT:BYTES:FILL, fills 0x3c, 0xff and
// 0x00) under the consequence oracle's workload, docs/tensorflow/calls.md "Writes past a
// struct". Sizes count from sizeof, as load.se.struct_overflow does (the mock counts SP_Platform
// from SP_PLATFORM_STRUCT_SIZE, 35, five bytes short of its sizeof). SP_TimerFns has no row:
// neither release calls create_timer_fns, and the suite does not either under their profiles.
constexpr StructOverflowFact kFacts[] = {
    // tensorflow-cpu 2.21.0
    {"newest", "TensorFlow 2.21", "SP_Device", kNonZero, 144, 145,
     "hangs or crashes (SIGSEGV) in its first copy to the device"},
    {"newest", "TensorFlow 2.21", "SP_Device", kWithZeros, 128, 136,
     "crashes (SIGSEGV) in its first copy to the device"},
    {"newest", "TensorFlow 2.21", "SP_Platform", kNonZero, 31, 33,
     "dies while loading the plugin (SIGABRT, SIGSEGV)"},
    {"newest", "TensorFlow 2.21", "SP_Platform", kWithZeros, 31, 35,
     "dies while loading the plugin (SIGABRT)"},
    {"newest", "TensorFlow 2.21", "SP_PlatformFns", kNonZero, 80, 81,
     "dies while loading the plugin (SIGABRT, SIGSEGV)"},
    {"newest", "TensorFlow 2.21", "SP_PlatformFns", kWithZeros, 0, 8,
     "refuses the plugin (FAILED_PRECONDITION: SE_PlatformRegistrationParams.struct_size is 0)"},
    {"newest", "TensorFlow 2.21", "SP_StreamExecutor", kNonZero, 80, 81,
     "crashes (SIGSEGV, SIGBUS, SIGABRT) in its first copy to the device"},
    {"newest", "TensorFlow 2.21", "SP_StreamExecutor", kWithZeros, 96, 128,
     "crashes (SIGSEGV) while loading the plugin"},
    {"newest", "TensorFlow 2.21", "SP_DeviceFns", kNonZero, 16, 17,
     "crashes (SIGSEGV) while loading the plugin"},
    {"newest", "TensorFlow 2.21", "SP_DeviceFns", kWithZeros, 16, 17,
     "crashes (SIGILL, SIGSEGV) while loading the plugin"},
    // tensorflow-cpu 2.15.1
    {"tf2.15", "TensorFlow 2.15", "SP_Device", kNonZero, 56, 57,
     "aborts (SIGABRT) or crashes (SIGSEGV) in its first copy to the device"},
    {"tf2.15", "TensorFlow 2.15", "SP_Device", kWithZeros, 56, 60,
     "crashes (SIGSEGV) in its first copy to the device"},
    {"tf2.15", "TensorFlow 2.15", "SP_Platform", kNonZero, 251, 507,
     "dies while loading the plugin (SIGABRT)"},
    {"tf2.15", "TensorFlow 2.15", "SP_Platform", kWithZeros, 251, 507,
     "dies while loading the plugin (SIGABRT)"},
    {"tf2.15", "TensorFlow 2.15", "SP_PlatformFns", kNonZero, 80, 81,
     "dies while loading the plugin (SIGABRT, SIGSEGV)"},
    {"tf2.15", "TensorFlow 2.15", "SP_PlatformFns", kWithZeros, 0, 8,
     "refuses the plugin (FAILED_PRECONDITION: SE_PlatformRegistrationParams.struct_size is 0)"},
    {"tf2.15", "TensorFlow 2.15", "SP_StreamExecutor", kNonZero, 80, 81,
     "crashes (SIGSEGV, SIGILL, SIGABRT) in its first copy to the device"},
    {"tf2.15", "TensorFlow 2.15", "SP_StreamExecutor", kWithZeros, 96, 128,
     "crashes (SIGSEGV) while loading the plugin"},
    {"tf2.15", "TensorFlow 2.15", "SP_DeviceFns", kNonZero, 16, 17,
     "crashes (SIGSEGV) while loading the plugin"},
    {"tf2.15", "TensorFlow 2.15", "SP_DeviceFns", kWithZeros, 16, 17,
     "crashes (SIGILL, SIGSEGV) while loading the plugin"},
};

// Read with gdb at the mock's write, on both releases: every table lives in the frame of the
// function that loads the plugin, one after another; SP_Device in the frame of the one that
// creates a device's executor.
constexpr std::pair<std::string_view, std::string_view> kWhatLiesPast[] = {
    {"SP_Device",
     "TensorFlow's SE_CreateDeviceParams (32 bytes), then other locals of the frame that "
     "creates the device's executor"},
    {"SP_Platform", "other locals of the frame that loads the plugin"},
    {"SP_PlatformFns",
     "TensorFlow's SE_PlatformRegistrationParams (64 bytes, struct_size first), 8 bytes, then "
     "the plugin's own SP_Platform"},
    {"SP_StreamExecutor",
     "TensorFlow's SE_CreateDeviceFnsParams and SE_CreateStreamExecutorParams (24 bytes and "
     "8 more each), then SP_DeviceFns (its struct_size and ext_priv, then get_numa_node at 80)"},
    {"SP_DeviceFns", "SP_PlatformFns (its struct_size and ext_priv, then get_device_count at 16)"},
};

// "144 non-zero bytes", "8 zero bytes".
std::string Bytes(std::size_t bytes, PastEndValue value) {
  return std::to_string(bytes) + (value == kWithZeros ? " zero byte" : " non-zero byte") +
         (bytes == 1 ? "" : "s");
}

}  // namespace

const StructOverflowFact* FindStructOverflowFact(std::string_view profile,
                                                 std::string_view struct_name, PastEndValue value) {
  for (const StructOverflowFact& fact : kFacts) {
    if (fact.profile == profile && fact.struct_name == struct_name && fact.value == value)
      return &fact;
  }
  return nullptr;
}

std::string_view WhatLiesPast(std::string_view struct_name) {
  for (const auto& [name, what] : kWhatLiesPast) {
    if (name == struct_name) return what;
  }
  return "";
}

std::optional<StructOverflowVerdict> JudgeStructOverflow(std::string_view profile,
                                                         std::string_view struct_name,
                                                         std::string_view call, std::size_t bytes,
                                                         PastEndValue value) {
  const StructOverflowFact* fact = FindStructOverflowFact(profile, struct_name, value);
  if (fact == nullptr) return std::nullopt;
  // Zeros among other values were not measured as such: the smaller limit of the two holds.
  if (value == kWithZeros) {
    const StructOverflowFact* other = FindStructOverflowFact(profile, struct_name, kNonZero);
    if (other != nullptr && other->survived < fact->survived) fact = other;
  }
  const std::string release(fact->release), name(struct_name), who(call);
  const std::string_view lies = WhatLiesPast(struct_name);
  const std::string there = lies.empty() ? "" : "past it lies " + std::string(lies);
  const std::string survived =
      fact->survived == 0 ? "none" : "up to " + Bytes(fact->survived, fact->value);
  if (bytes <= fact->survived) {
    return StructOverflowVerdict{true, release + " was measured to run correctly when " + who +
                                           " writes " + survived + " past " + name +
                                           (there.empty() ? "" : " (" + there + ")")};
  }
  const std::string measured =
      "measured; it ran correctly with " + survived + (there.empty() ? "" : "; " + there);
  if (bytes >= fact->fails_at) {
    return StructOverflowVerdict{false, release + " " + std::string(fact->consequence) + " when " +
                                            who + " writes " + Bytes(fact->fails_at, fact->value) +
                                            " past " + name + " (" + measured + ")"};
  }
  // Between the last size survived and the first measured to go wrong: not measured.
  return StructOverflowVerdict{
      false, release + " was measured to run correctly with " + survived + " past " + name +
                 " and " + std::string(fact->consequence) + " at " +
                 Bytes(fact->fails_at, fact->value) + "; " + who + " wrote " +
                 std::to_string(bytes) + (there.empty() ? "" : " (" + there + ")")};
}

}  // namespace conformance::validate
