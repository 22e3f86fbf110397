#pragma once
// Generated scenario files for the bounds tests and benchmarks/scenario_load_bench.cc: a long
// `repeat` (the shape that once made validation quadratic) and a large flat file (the shape
// whose memory per byte of YAML is the highest).
#include <cstddef>
#include <string>

namespace conformance::scenario::testing {

// One scenario of `total_steps` steps after unrolling (6 set-up steps, then a repeat of 10
// steps with asynchronous copies on two streams ordered through an event).
inline std::string RepeatScenarioText(std::size_t total_steps) {
  const std::size_t repetitions = (total_steps - 6) / 10;
  return "tensorflow: t\nfix: f\nscenarios:\n"
         "  - name: long_repeat\n"
         "    rule: r\n"
         "    steps:\n"
         "      - create_stream: {name: s}\n"
         "      - create_stream: {name: s2}\n"
         "      - create_event: {name: e}\n"
         "      - allocate: {name: a, size: 4K}\n"
         "      - allocate: {name: b, size: 4K}\n"
         "      - allocate: {name: h, size: 4K, kind: host}\n"
         "      - repeat:\n"
         "          times: " +
         std::to_string(repetitions) +
         "\n"
         "          steps:\n"
         "            - memcpy_htod: {dst: a, size: 4K, random: {seed_offset: 1}, stream: s}\n"
         "            - memcpy_dtod: {dst: b, src: a, size: 4K, stream: s}\n"
         "            - record_event: {event: e, stream: s}\n"
         "            - wait_for_event: {stream: s2, event: e}\n"
         "            - memcpy_dtoh: {src: b, size: 4K, stream: s2}\n"
         "            - memset: {buffer: a, size: 1K, value: 3, stream: s}\n"
         "            - memcpy_dtoh: {src: a, size: 4K, dst: h, stream: s}\n"
         "            - block_host_until_done: {stream: s}\n"
         "            - block_host_until_done: {stream: s2}\n"
         "            - verify: {buffer: h}\n";
}

// Scenarios of 302 written-out steps each, until the text reaches `bytes`.
inline std::string FlatScenarioText(std::size_t bytes) {
  std::string text = "tensorflow: t\nfix: f\nscenarios:\n";
  for (int scenario = 0; text.size() < bytes; ++scenario) {
    text += "  - name: flat_" + std::to_string(scenario) +
            "\n    rule: r\n    steps:\n      - create_stream: {name: s}\n      - allocate: {name: "
            "a, size: 4K}\n";
    for (int i = 0; i < 100; ++i) {
      const std::string byte = std::to_string(i % 256);
      text += "      - memcpy_htod: {dst: a, size: 4K, pattern: {bytes: [" + byte +
              ", 1]}, stream: s}\n";
      text += "      - memset: {buffer: a, offset: 16, size: 1K, value: " + byte + ", stream: s}\n";
      text += "      - memcpy_dtoh: {src: a, size: 4K, stream: s}\n";
    }
    text += "      - block_host_until_done: {stream: s}\n";
  }
  return text;
}

}  // namespace conformance::scenario::testing
