#pragma once
// The configuration of libmock_plugin.so: a MockPlugin whose faults come from the
// MOCK_PLUGIN_CONFIG environment variable, so the whole harness can load a misbehaving mock.
//
//   MOCK_PLUGIN_CONFIG='generation=tf2.7;fail_allocation=3;error=create_stream:INTERNAL:boom'
//
// Keys (';'-separated, each at most once unless noted):
//   generation=newest|tf2.10|tf2.7|tf2.5     header generation the mock is built as
//   name=NAME, type=TYPE, devices=N          SP_Platform.name/type, get_device_count
//   fail_allocation=N                        the Nth allocate fails (repeatable)
//   stall_stream=N                           the Nth stream created never runs its work
//                                            (repeatable; counted per process)
//   error=CALLBACK:CODE:MESSAGE              CALLBACK reports CODE (e.g. INTERNAL) (repeatable)
//   null=CALLBACK                            the table leaves CALLBACK NULL (repeatable)
//   unwritten=OUTPARAM                       allocate_memory, allocate_size, create_stream,
//                                            create_event, memory_usage_free, memory_usage_total,
//                                            status, device_count, struct_size,
//                                            allocator_stats (repeatable)
//   write_past_end=STRUCT:BYTES[:FILL]       platform, platform_fns, stream_executor,
//                                            device_fns, timer_fns, device (repeatable);
//                                            FILL the byte written (default 0x3c)
//   struct_size=STRUCT:BYTES|unwritten       the struct_size written into STRUCT, or none
//                                            (TensorFlow's pre-fill stays): se_params,
//                                            platform, platform_fns, device_fns,
//                                            stream_executor, timer_fns, device,
//                                            graph_params, optimizer, optimizer_configs,
//                                            profiler_params, profiler, profiler_fns
//   never_complete_events                    recorded events stay PENDING
//   graph_device_type=T, profiler_device_type=T   TF_InitGraph / TF_InitProfiler device types
// CALLBACK may also be TF_InitGraph, create_func, optimize_func, destroy_func, TF_InitProfiler,
// start, stop, collect_data_xspace, destroy_profiler, destroy_profiler_fns.
#include <string>
#include <string_view>

#include "mocks/graph_profiler_mock.h"
#include "mocks/platform_mock.h"

namespace conformance::mocks {

// The mocks one entry point configures; the others are null and their items are skipped.
struct ConfiguredMocks {
  MockPlugin* plugin = nullptr;
  MockOptimizer* optimizer = nullptr;
  MockProfiler* profiler = nullptr;
};

// Applies `config`; returns "" or an error naming the bad item, with a suggestion.
std::string ApplyPluginConfig(std::string_view config, const ConfiguredMocks& mocks);
// Reads only the generation (the MockPlugin must be built with it).
std::string ParseConfigGeneration(std::string_view config, Generation* generation);

}  // namespace conformance::mocks
