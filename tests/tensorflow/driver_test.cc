// tf_driver against one TensorFlow release: the reference and the example plugin load, their
// device is listed, a tensor of every dtype comes back from the plugin's device byte for byte,
// and AddV2 runs on the plugin's device with TensorFlow's CPU result; a plugin TensorFlow
// refuses is reported with the code and message TensorFlow logged before aborting.
//
//   tensorflow_driver_test --driver TF_DRIVER --tensorflow DIR --reference PLUGIN
//                          --example PLUGIN --mock PLUGIN [--reference-refused-with TEXT]
// --reference-refused-with: the release refuses the reference plugin (2.15.1: grappler.h lives
// in libtensorflow_cc.so.2, which `import tensorflow` loads RTLD_LOCAL there), with a NOT_FOUND
// message ending in TEXT.
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "skip.h"

namespace {

using nlohmann::json;

int failures = 0;

void Expect(bool condition, const std::string& what) {
  if (condition) return;
  ++failures;
  std::cout << "FAILED: " << what << '\n';
}

json Drive(const std::map<std::string, std::string>& args, const std::string& plugin,
           const std::string& env = "") {
  const std::string command = env + " '" + args.at("--driver") + "' --tensorflow '" +
                              args.at("--tensorflow") + "' '" + plugin + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    text.append(buffer, n);
  const json result = json::parse(text, nullptr, false);
  Expect(!result.is_discarded(), "tf_driver printed JSON for " + plugin + ": " + text);
  return result.is_discarded() ? json::object() : result;
}

void ExpectRunsOnItsDevice(const json& result, const std::string& name) {
  Expect(result.value("outcome", "") == "loaded", name + " loads: " + result.dump());
  std::string device;
  for (const json& listed : result.value("devices", json::array())) {
    if (listed["type"] != "CPU" && device.empty()) device = listed["name"];
  }
  Expect(!device.empty(), name + "'s device is listed");
  Expect(result.value("copies", json::array()).size() >= 10, name + ": copies of every dtype");
  for (const json& copy : result.value("copies", json::array())) {
    Expect(copy.value("equal", false) && copy.value("backing_device", "") == device,
           name + ": round trip through " + device + ": " + copy.dump());
  }
  bool add_v2 = false;
  for (const json& op : result.value("ops", json::array())) {
    if (op["op"] != "AddV2") continue;
    add_v2 = true;
    Expect(op["plugin"].value("backing_device", "") == device && op.value("equal", false),
           name + ": AddV2 on " + device + " equals TensorFlow's CPU result: " + op.dump());
  }
  Expect(add_v2, name + ": AddV2 was run");
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> args = {{"--tensorflow", ""}};
  for (int i = 1; i + 1 < argc; i += 2) args[argv[i]] = argv[i + 1];
  if (args["--tensorflow"].empty()) {
    return tensorflow_tests::SkipOrFail("the TensorFlow release is not configured");
  }
  if (const std::string refusal = args["--reference-refused-with"]; !refusal.empty()) {
    const json reference = Drive(args, args["--reference"]);
    Expect(reference.value("outcome", "") == "refused" &&
               reference["load_status"].value("code", 0) == 5 &&
               reference["load_status"].value("message", "").ends_with(refusal),
           "the reference plugin is refused with '" + refusal + "': " + reference.dump());
  } else {
    ExpectRunsOnItsDevice(Drive(args, args["--reference"]), "the reference plugin");
  }
  ExpectRunsOnItsDevice(Drive(args, args["--example"]), "the example plugin");

  // TF_CHECK_OK on the plugin's registration: the process aborts, the log keeps the status.
  const json refused = Drive(args, args["--mock"], "MOCK_PLUGIN_CONFIG='null=allocate'");
  Expect(refused.value("outcome", "") == "aborted", "a NULL allocate aborts: " + refused.dump());
  Expect(refused.value("fatal", json::object()).value("code", 0) == 9 &&
             refused["fatal"].value("message", "") ==
                 "'allocate' field in SP_StreamExecutor must be set.",
         "the abort's status is read back: " + refused.dump());
  // dlopen's failure is returned, not fatal.
  const json missing = Drive(args, "/nonexistent/plugin.so");
  Expect(missing.value("outcome", "") == "refused" && missing["load_status"].value("code", 0) == 5,
         "a missing file is NOT_FOUND: " + missing.dump());
  std::cout << (failures == 0 ? "all checks passed\n" : "");
  return failures == 0 ? 0 : 1;
}
