// libFuzzer entry point: arbitrary bytes through the scenario parser and validator, exactly
// as a vendor's file goes through them (parse, then validate each scenario that parsed).
// Anything but a clean result or a list of errors (a crash, a sanitizer report, a hang, a
// runaway allocation) is a finding. How to run it: tests/fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenario/parser.h"
#include "scenario/validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace conformance::scenario;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ErrorList errors("fuzz.yaml");
  ParsedFile parsed = ParseScenarioText(text, "fuzz.yaml", "fuzz", errors);
  for (std::size_t i = 0; i < parsed.file.scenarios.size(); ++i) {
    if (parsed.scenario_ok[i])
      (void)ValidateScenario(parsed.file, parsed.file.scenarios[i], errors);
  }
  for (const ScenarioError& error : errors.errors()) (void)error.ToString();
  return 0;
}
