#pragma once
// The calls, and argument patterns, TensorFlow's core itself makes on a plugin's
// SP_StreamExecutor while it runs a model. Every path that other checks depend on (the
// runtime tier's baseline copies and waits, the kernel tier's allocator, inputs and outputs)
// uses only these; a check may still probe any other call, and a defect reached only that way
// is that check's finding alone. This is the one list in code to reconcile with
// docs/tensorflow/calls.md (recorded from real TensorFlow): kCallsTensorFlowMakes is every call
// TensorFlow's core makes in some workload (from the ABI notes, shared/spec/tf_c_abi.md, and
// TensorFlow's PluggableDevice sources); kCallsPrerequisitesUse, the narrower list that the
// recording showed in a model's run, is all that prerequisite paths use.
#include <cstdint>
#include <string>
#include <string_view>

namespace conformance::runtime {

// Callbacks TensorFlow calls on a PluggableDevice in normal operation (device bring-up,
// BFC allocator, stream copies of tensors, event manager, stream waits, fills), as its sources
// and older releases have them. TensorFlow 2.21.0 was measured never to call several of them
// (host_callback, the waits, the fills, get_stream_status, get_allocator_stats); which failures
// that makes warnings is model/tensorflow_reach.h's concern, not this list's.
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

// The calls TensorFlow was recorded making while it ran a model (docs/tensorflow/calls.md,
// real TensorFlow 2.21), plus the calls that free what the harness creates. The only calls a
// prerequisite path (waits, the kernel tier's allocator, inputs and outputs) makes: a plugin
// whose other calls are broken, host_callback and block_host_until_done included, still gets
// every dependent check judged. tests/runtime_defects' off_tensorflow_paths_exit pins it.
inline constexpr std::string_view kCallsPrerequisitesUse[] = {
    "allocate",  // one large region per device, never 0 bytes
    "host_memory_allocate",
    "device_memory_usage",
    "create_stream",
    "create_stream_dependency",
    "create_event",
    "record_event",
    "get_event_status",  // polled until COMPLETE: how TensorFlow tracks completion
    "memcpy_htod",       // tensors are copied on a stream, asynchronously, often to interior
    "memcpy_dtoh",       // pointers
    "memcpy_dtod",
    "synchronize_all_activity",  // after every device-to-host copy: how eager reads wait
    // Teardown: not in the recorded workload (TensorFlow frees nothing before exit), but the
    // harness must give back what it created.
    "deallocate",
    "host_memory_deallocate",
    "destroy_stream",
    "destroy_event",
};

// True when a prerequisite path may make this call (the bare SP_StreamExecutor field name).
bool PrerequisitesMayUse(std::string_view callback);

// Argument patterns TensorFlow never uses even for calls it makes.
inline constexpr std::uint64_t kSmallestAllocationTensorFlowRequests = 1;  // BFC never asks for 0

// For a call TensorFlow makes in other workloads but not in the recorded one (host_callback,
// block_host_until_done, the fills, ...): "TensorFlow never calls host_callback in the workload
// recorded in docs/tensorflow/calls.md; no prerequisite check depends on it".
std::string OutsideRecordedWorkload(std::string_view call);

// Why a call is off TensorFlow's paths, for the message of the check that probes it:
// "TensorFlow never calls sync_memcpy_htod (it copies tensors with memcpy_htod on a stream)".
std::string NeverCalledByTensorFlow(std::string_view call);

}  // namespace conformance::runtime
