#pragma once
// The calls, and argument patterns, TensorFlow's core itself makes on a plugin's
// SP_StreamExecutor while it runs a model. Every path that other checks depend on (the
// runtime tier's baseline copies and waits, the kernel tier's allocator, inputs and outputs)
// uses only these; a check may still probe any other call, and a defect reached only that way
// is that check's finding alone. This is the one list in code to reconcile with
// docs/tensorflow/calls.md (recorded from real TensorFlow); until that exists the facts are
// from the ABI notes (shared/spec/tf_c_abi.md) and TensorFlow's PluggableDevice sources.
#include <cstdint>
#include <string>
#include <string_view>

namespace conformance::runtime {

// Callbacks TensorFlow calls on a PluggableDevice in normal operation (device bring-up,
// BFC allocator, stream copies of tensors, event manager, stream waits, fills).
inline constexpr std::string_view kCallsTensorFlowMakes[] = {
    "allocate",    // BFC / device allocator: never with 0 bytes
    "deallocate",  //
    "host_memory_allocate",
    "host_memory_deallocate",
    "get_allocator_stats",
    "device_memory_usage",
    "create_stream",
    "destroy_stream",
    "create_stream_dependency",
    "get_stream_status",
    "create_event",
    "destroy_event",
    "record_event",
    "get_event_status",  // the event manager polls it
    "wait_for_event",
    "block_host_for_event",
    "block_host_until_done",  // or its fallback: create_event + record_event + block_host_for_event
    "synchronize_all_activity",
    "memcpy_htod",  // tensors are copied on a stream, asynchronously
    "memcpy_dtoh",
    "memcpy_dtod",
    "mem_zero",
    "memset",
    "memset32",
    "host_callback",
};

// True when TensorFlow makes this call (the bare SP_StreamExecutor field name).
bool TensorFlowMakes(std::string_view callback);

// Argument patterns TensorFlow never uses even for calls it makes.
inline constexpr std::uint64_t kSmallestAllocationTensorFlowRequests = 1;  // BFC never asks for 0

// Why a call is off TensorFlow's paths, for the message of the check that probes it:
// "TensorFlow never calls sync_memcpy_htod (it copies tensors with memcpy_htod on a stream)".
std::string NeverCalledByTensorFlow(std::string_view call);

}  // namespace conformance::runtime
