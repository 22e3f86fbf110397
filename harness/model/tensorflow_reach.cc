#include "model/tensorflow_reach.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace conformance {
namespace {

// What one profile's TensorFlow was measured never to reach, and how. Only two releases are
// measured (docs/tensorflow/calls.md, "What TensorFlow 2.21 never reaches" and "What TensorFlow
// 2.15 never reaches"); under every other profile each failure stands, since that release may
// well make the call.
struct Reach {
  std::string_view profile;
  std::string_view measured;  // leads every message: "TensorFlow 2.21 never calls ..."
  std::string_view workload;  // what the never-called list was measured under
  // Every fact after the never-called list (allocate, deallocate, streams, synchronisation,
  // kernel inputs) was measured with the reference plugin's kernels; a release that refuses
  // that plugin has only its never-called list.
  bool with_reference_plugin;
};

// SP_StreamExecutor callbacks neither measured release called, with or without the BFC
// allocator (the two lists came out the same; a release with another list needs its own).
constexpr std::string_view kNeverCalled[] = {
    "host_callback",
    "sync_memcpy_htod",
    "sync_memcpy_dtoh",
    "sync_memcpy_dtod",
    "block_host_until_done",
    "block_host_for_event",
    "wait_for_event",
    "get_stream_status",
    "mem_zero",
    "memset",
    "memset32",
    "get_allocator_stats",
};

// tensorflow-cpu 2.21.0: tests/tensorflow_oracle's call-logging plugin in front of the reference
// plugin, with use_bfc_allocator 1 and 0 (CALL_LOG_USE_BFC=0), under reference_in_tensorflow.py's
// workload and every Python API of api_calls.py. tensorflow-cpu 2.15.1 refuses the reference
// plugin (tensorflow.reference_plugin.2_15), so there the call-logging plugin wraps the mock
// plugin (no kernels): the same APIs, with and without the BFC allocator.
constexpr Reach kMeasuredReleases[] = {
    {"newest", "TensorFlow 2.21",
     "measured with and without the BFC allocator: eager copies, kernels, tf.function with "
     "while_loop and cond, variables, checkpoints, TF_Session graphs, "
     "tf.test.experimental.sync_devices, get_memory_info, the profiler",
     true},
    {"tf2.15", "TensorFlow 2.15",
     "measured with and without the BFC allocator, on a plugin without kernels: eager copies "
     "between host and both devices, tf.function with while_loop and cond, variables, "
     "checkpoints, tf.print, tf.test.experimental.sync_devices, get_memory_info, the profiler",
     false},
};

// The device alignment TensorFlow 2.21 was measured to work with under the BFC allocator.
constexpr long long kMeasuredAlignment = 16;

// Scenario checks that allocate an odd number of bytes (conformance/runtime/allocate.yaml).
constexpr std::string_view kOddSizeScenarios[] = {"runtime.scenario.allocate.one_byte",
                                                  "runtime.scenario.allocate.odd_size"};

std::string_view Detail(const CheckResult& result, std::string_view key) {
  const auto found = result.details.find(std::string(key));
  return found == result.details.end() ? std::string_view() : std::string_view(found->second);
}

bool Contains(const auto& list, std::string_view value) {
  return std::find(std::begin(list), std::end(list), value) != std::end(list);
}

std::optional<long long> Number(std::string_view text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::string WithBfc(std::string_view measured) {
  return std::string(measured) +
         " with the BFC allocator (this plugin sets use_bfc_allocator) calls allocate only "
         "for one region per device, 75% of the free memory device_memory_usage reports, and "
         "carves every tensor out of it";
}

const Reach* MeasuredRelease(std::string_view profile) {
  for (const Reach& reach : kMeasuredReleases) {
    if (reach.profile == profile) return &reach;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> UnreachedByTensorFlow(const CheckResult& result,
                                                 std::string_view profile) {
  const Reach* reach = MeasuredRelease(profile);
  if (reach == nullptr) return std::nullopt;
  const std::string_view call = Detail(result, "failing_call");
  const std::string_view problem = Detail(result, "problem");
  const bool bfc = Detail(result, kUsesBfcDetail) == "1";
  // Measured on both releases with a throwaway profiler plugin logging each call
  // (docs/tensorflow/calls.md): with its start failing, stop and collect_data_xspace were never
  // called; with two such plugins loaded and one start failing, only the other was stopped; and
  // tf.profiler.experimental.stop() without start raises in Python before reaching any plugin.
  if (result.id == "profiler.stop_without_start") {
    return std::string(reach->measured) +
           " calls TP_ProfilerFns.stop only after the same profiler's start returned OK "
           "(measured: a failing start, its own or another profiler's, is never followed by its "
           "stop, and tf.profiler.experimental.stop() without start raises in Python before "
           "reaching the plugin)";
  }
  if (Contains(kNeverCalled, call)) {
    return std::string(reach->measured) + " never calls " + std::string(call) + " (" +
           std::string(reach->workload) + ")";
  }
  // Measured on both releases, with and without the BFC allocator: the call-logging plugin in
  // front of the mock plugin whose allocate leaves size unwritten copied 49 of 49 tensors right
  // (7 dtypes, 0 to 256 Ki elements; 144 allocate calls without BFC on 2.21.0, 180 on 2.15.1).
  if (result.id == "runtime.memory.allocate.size_written") {
    return std::string(reach->measured) +
           " keeps only SP_DeviceMemoryBase.opaque of what allocate returns, with or without "
           "the BFC allocator (its allocators carve and free by address, and copies take "
           "their size from the tensor): an unwritten or short size changed no value it showed";
  }
  if (!reach->with_reference_plugin) return std::nullopt;
  const std::string_view measured = reach->measured;  // the rest: newest only
  if (call == "deallocate" && (result.id == "runtime.memory.deallocate.null" ||
                               result.id == "runtime.scenario.allocate.deallocate_null")) {
    return std::string(measured) +
           " never passes NULL to deallocate (without the BFC allocator every deallocate named "
           "an address allocate had returned; with it, deallocate is never called)";
  }
  if (call == "allocate" && result.id == "runtime.memory.allocate.zero") {
    return std::string(measured) +
           " never asks allocate for 0 bytes (its allocator gives empty tensors no memory)";
  }
  if (call == "synchronize_all_activity" && problem == "late completion") {
    return std::string(measured) +
           " calls synchronize_all_activity with each device-to-host copy (in an eager "
           "read-back, before it), orders the copy after the compute stream with "
           "create_stream_dependency, and waits for the copy itself with record_event and "
           "polled get_event_status: a synchronize_all_activity that returns early changed no "
           "value it showed";
  }
  // Measured with kernel_defects/compute_ahead, whose AddV2 reads its inputs on the host the
  // moment compute is called: its inputs' host-to-device copies are never still queued then
  // (TensorFlow uses a copied tensor only once the copy's event, polled with get_event_status,
  // reads COMPLETE), so 56 of 56 items were right in 5 of 5 runs, eager and in tf.function.
  // A kernel reading ahead of queued kernels is another matter: the models tier's chained run
  // still fails it (its own check, model_defects/read_ahead), as TensorFlow shows it.
  if (call == "compute_func" && problem == "read inputs ahead of the stream" &&
      result.id.ends_with(".late_inputs")) {
    return std::string(measured) +
           " runs a kernel only once the host-to-device copies of its inputs completed (it "
           "polls each copy's event with get_event_status before using the tensor): inputs "
           "still being copied when compute runs never happen there";
  }
  // Measured with the call-logging plugin (a 512x512 MatMul on the device, then .numpy()):
  // synchronize_all_activity, then create_stream_dependency(device-to-host stream, compute
  // stream), memcpy_dtoh, record_event and polled get_event_status. The read-back waits for all
  // device work twice over; runtime_defects/stream_dependency_noop given the reference
  // plugin's kernels computed 381 of 381 items right in 5 of 5 runs of the consequence oracle.
  if (call == "create_stream_dependency" && problem == "late completion") {
    return std::string(measured) +
           " reads a device tensor back only after synchronize_all_activity (then "
           "create_stream_dependency, memcpy_dtoh and a polled event): the work the dependency "
           "should wait for has finished before the copy is queued, so a dependency that does "
           "not wait changed no value it showed";
  }
  if (call == "create_stream" && result.id == "runtime.stream.scale") {
    const auto number = Number(Detail(result, kStreamNumberDetail));
    if (number && *number > kStreamsTensorFlowCreatesPerDevice) {
      return std::string(measured) + " creates " +
             std::to_string(kStreamsTensorFlowCreatesPerDevice) +
             " streams per device and refuses virtual devices for a PluggableDevice; stream #" +
             std::to_string(*number) + " is one it never asks for";
    }
  }
  if (bfc && call == "allocate") {
    if (result.id == "runtime.memory.allocate.beyond_capacity" ||
        result.id == "runtime.scenario.allocate.beyond_capacity" ||
        (problem == "returned NULL" && Contains(kOddSizeScenarios, result.id))) {
      return WithBfc(measured) + ": never a size beyond the device's memory, nor an odd one";
    }
    // Measured with runtime_defects/alloc_misaligned given the reference plugin's kernels:
    // every tensor 16 bytes off 64-byte alignment, 363 copies and kernel cases right in 5 of 5
    // runs. TensorFlow never dereferences device memory itself.
    if (result.id == "runtime.memory.allocate.alignment") {
      const auto alignment = Number(Detail(result, "observed_alignment"));
      if (alignment && *alignment >= kMeasuredAlignment) {
        return WithBfc(measured) + ", never looking at where it starts: with every tensor only " +
               std::to_string(*alignment) +
               "-byte aligned it ran copies of every dtype and 260 kernels right";
      }
    }
    if (problem == "returned NULL" && result.id == "runtime.memory.allocate.sizes") {
      const auto bytes = Number(Detail(result, "requested_bytes"));
      if (bytes && *bytes % 2 == 1) return WithBfc(measured) + ": never an odd size";
    }
  }
  return std::nullopt;
}

void DowngradeUnreached(CheckResult& result, std::string_view profile) {
  // Registration is TensorFlow's own judgement (a NULL host_callback is refused at load, and
  // that refusal is reached by every program), and so is any status TensorFlow raises.
  if (result.tier == "load" || result.tf_code) return;
  if (result.outcome != Outcome::kFail && result.outcome != Outcome::kCrash &&
      result.outcome != Outcome::kTimeout) {
    return;
  }
  const auto why = UnreachedByTensorFlow(result, profile);
  if (!why) return;
  result.message = *why + "; so only a warning: " + result.message;
  result.details["downgraded"] = *why;
  result.outcome = Outcome::kWarning;
}

}  // namespace conformance
