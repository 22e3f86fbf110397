#include "validate/profiler_session.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isolate/in_flight.h"
#include "loader/plugin_library.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "validate/check_log.h"
#include "validate/tf_status.h"
#include "xplane.pb.h"

namespace conformance::validate {
namespace {

// Bytes past the announced size: a plugin writing more than it announced overwrites them.
constexpr std::size_t kGuardBytes = 64;
constexpr std::uint8_t kGuardValue = 0xA5;

struct RegisteredProfiler {
  TP_Profiler profiler{};
  TP_ProfilerFns fns{};
};

// TF_InitProfiler as TensorFlow calls it; the load tier already judged what it fills in.
bool Register(void (*init)(void*, void*), RegisteredProfiler& out) {
  TF_ProfilerRegistrationParams params{};
  params.struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params.major_version = TP_MAJOR;
  params.minor_version = TP_MINOR;
  params.patch_version = TP_PATCH;
  out.profiler.struct_size = TP_PROFILER_STRUCT_SIZE;
  out.fns.struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  params.profiler = &out.profiler;
  params.profiler_fns = &out.fns;
  OwnedStatus status;
  {
    in_flight::PluginCall call("TF_InitProfiler");
    init(&params, status.get());
  }
  return status.ok() && out.fns.start && out.fns.stop && out.fns.collect_data_xspace;
}

Details Blame(const char* call, const char* problem) {
  return {{"failing_call", call}, {"problem", problem}};
}

bool CallFn(CheckLog& log, const char* id, const char* name,
            void (*fn)(const TP_Profiler*, TF_Status*), const TP_Profiler& profiler) {
  OwnedStatus status;
  {
    in_flight::PluginCall call(std::string("TP_ProfilerFns.") + name);
    fn(&profiler, status.get());
  }
  if (status.ok()) return true;
  log.Fail(id, std::string(name) + " failed: " + status.message(), {},
           Blame((std::string("TP_ProfilerFns.") + name).c_str(), "error status"));
  return false;
}

// The two-call protocol: size first (buffer NULL), then the bytes into exactly that many.
void CollectAndParse(const RegisteredProfiler& p, CheckLog& log) {
  const char* kCollect = "TP_ProfilerFns.collect_data_xspace";
  log.Begin("profiler.collect.size_protocol");
  std::size_t announced = 0;
  OwnedStatus status;
  {
    in_flight::PluginCall call(kCollect);
    p.fns.collect_data_xspace(&p.profiler, nullptr, &announced, status.get());
  }
  if (!status.ok()) {
    log.Fail("profiler.collect.size_protocol", "size query failed: " + status.message(), {},
             Blame(kCollect, "error status"));
    log.Skip("profiler.xspace.parse", "no XSpace was collected");
    return;
  }
  std::vector<std::uint8_t> buffer(announced + kGuardBytes, kGuardValue);
  std::size_t written = announced;
  if (announced != 0) {
    in_flight::PluginCall call(kCollect);
    p.fns.collect_data_xspace(&p.profiler, buffer.data(), &written, status.get());
  }
  std::size_t overrun = 0;
  for (std::size_t i = announced; i < buffer.size(); ++i) overrun += buffer[i] != kGuardValue;
  if (!status.ok()) {
    log.Fail("profiler.collect.size_protocol", "collecting the data failed: " + status.message(),
             {}, Blame(kCollect, "error status"));
  } else if (overrun != 0 || written > announced) {
    log.Fail("profiler.collect.size_protocol",
             "the second call wrote past the " + std::to_string(announced) +
                 " bytes the first call announced (" + std::to_string(overrun) +
                 " guard bytes overwritten, size reported " + std::to_string(written) +
                 "): TensorFlow's buffer is exactly the announced size, so this corrupts its heap",
             {}, Blame(kCollect, "buffer overrun"));
    log.Skip("profiler.xspace.parse", "profiler.collect.size_protocol failed");
    return;
  } else {
    log.Pass("profiler.collect.size_protocol");
  }
  if (announced == 0) {
    log.Pass("profiler.xspace.parse", {{"note", "empty XSpace (size 0): TensorFlow stops there"}});
    return;
  }
  proto::XSpace space;
  if (!space.ParseFromArray(buffer.data(), static_cast<int>(announced))) {
    log.Fail("profiler.xspace.parse",
             "the " + std::to_string(announced) +
                 " bytes collect_data_xspace wrote do not parse as an XSpace: TensorFlow drops "
                 "the whole device trace",
             {}, Blame(kCollect, "unparsable XSpace"));
    return;
  }
  std::size_t events = 0;
  for (const auto& plane : space.planes()) {
    for (const auto& line : plane.lines()) events += static_cast<std::size_t>(line.events_size());
  }
  log.Pass("profiler.xspace.parse",
           {{"planes", std::to_string(space.planes_size())}, {"events", std::to_string(events)}});
}

// Drives the plugin's profiler: a stop with no session started when `stop_only`, else one
// session (start, stop, collect). Each in a unit, so a child of its own: a crashing stop without
// start (a warning where TensorFlow never calls it) must not cost the session's checks.
void RunSession(const std::string& plugin_path, const std::vector<std::string>& ids, bool stop_only,
                CheckLog& log) {
  auto library = loader::PluginLibrary::Open(plugin_path);
  if (!library.ok()) {
    log.SkipRemaining("profiler.", "cannot load the plugin: " + library.error().Describe());
    return;
  }
  const auto entry_points = library.value().FindEntryPoints();
  if (!entry_points.tf_init_profiler) {
    for (const std::string& id : ids) {
      log.NotSupported(id, "the plugin does not export TF_InitProfiler");
    }
    return;
  }
  RegisteredProfiler p;
  if (!Register(entry_points.tf_init_profiler->function, p)) {
    log.SkipRemaining("profiler.", "TF_InitProfiler did not register a complete profiler");
    return;
  }
  if (stop_only) {
    // A stop with no started session must not crash (status or no-op). TensorFlow 2.21 and
    // 2.15 never do it (model/tensorflow_reach.cc downgrades the crash there); others may.
    log.Begin("profiler.stop_without_start");
    {
      OwnedStatus status;
      in_flight::PluginCall call("TP_ProfilerFns.stop");
      p.fns.stop(&p.profiler, status.get());
    }
    log.Pass("profiler.stop_without_start");
    return;
  }
  log.Begin("profiler.start_stop");
  if (!CallFn(log, "profiler.start_stop", "start", p.fns.start, p.profiler) ||
      !CallFn(log, "profiler.start_stop", "stop", p.fns.stop, p.profiler)) {
    log.SkipRemaining("profiler.", "profiler.start_stop failed");
    return;
  }
  log.Pass("profiler.start_stop");
  CollectAndParse(p, log);
}

TestUnit ProfilerUnit(std::string name, std::vector<std::string> ids, bool stop_only) {
  TestUnit unit;
  unit.name = std::move(name);
  unit.tier = "profiler";
  unit.check_ids = std::move(ids);
  unit.prerequisites = {"load.profiler.profiler_fns.collect_data_xspace"};
  unit.run = [ids = unit.check_ids, stop_only](UnitContext& context) {
    CheckLog log(context.sink, ids);
    RunSession(context.settings.plugin_path, ids, stop_only, log);
  };
  return unit;
}

}  // namespace

std::vector<TestUnit> ProfilerSessionUnits() {
  return {ProfilerUnit("profiler.stop_without_start", {"profiler.stop_without_start"}, true),
          ProfilerUnit(
              "profiler.session",
              {"profiler.start_stop", "profiler.collect.size_protocol", "profiler.xspace.parse"},
              false)};
}

}  // namespace conformance::validate
