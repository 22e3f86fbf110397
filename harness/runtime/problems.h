#pragma once
// The stable `problem` phrases of a failure's details (with `failing_call`, the callback
// blamed). The run layer groups failures with equal (failing_call, problem) into one root
// cause, so every check that blames a callback for the same fault must use the same words.
namespace conformance::runtime {

inline constexpr const char* kWrongBytesWritten = "wrong bytes written";
inline constexpr const char* kLateCompletion = "late completion";
// host_callback accepted a callback (returned true) and never called it back, or called twice.
inline constexpr const char* kCallbackNeverRan = "callback never ran";
inline constexpr const char* kCallbackRanTwice = "callback ran more than once";
// An event that reads COMPLETE while work recorded before it is still running.
inline constexpr const char* kEventCompleteEarly = "event complete before the work before it";
// get_event_status reads COMPLETE for an event never recorded, and so whatever was recorded: it
// reports no state of its own (a fail once work before a recorded event is seen still running).
inline constexpr const char* kEventAlwaysComplete = "event COMPLETE whatever was recorded";
// deallocate gave a block back (or let it be overwritten) while work queued before the call
// still read it. TensorFlow without its BFC allocator deallocates a kernel's inputs right after
// queuing the kernel, so the runtime check and every kernel case that shows it share this cause.
inline constexpr const char* kFreedUnderQueuedWork = "freed while queued work still reads it";
inline constexpr const char* kFreedUnderQueuedWorkConsequence =
    "Without the BFC allocator TensorFlow deallocates a kernel's inputs as soon as the kernel is "
    "queued, so the kernel computes on whatever the block holds by the time it runs: give memory "
    "back in stream order (once every stream reached the call), or wait for the device first";

// host_memory_allocate returned a block shorter than the size asked for. Found by the check
// below, which the scenarios writing into host memory wait for: they would corrupt the heap
// (a crash in whichever call frees next, blamed on the wrong callback) instead.
inline constexpr const char* kHostAllocationShort = "allocation smaller than asked";
inline constexpr const char* kHostAllocationSizesCheck = "runtime.memory.host_allocate.sizes";
inline constexpr const char* kHostAllocationShortConsequence =
    "TensorFlow stages tensors of the asked size in host memory from host_memory_allocate; a "
    "shorter block lets them overwrite each other and the heap behind it, which crashes in "
    "whichever call frees memory next";

}  // namespace conformance::runtime
