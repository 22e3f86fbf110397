#include "profiler/profiler.h"

#include <cstring>
#include <mutex>
#include <string>

#include "profiler/trace_recorder.h"
#include "profiler/xspace_writer.h"
#include "stream_executor/platform.h"

namespace reference_plugin::profiler {
namespace {

// The XSpace of the last session, serialized once by the size query so that the second call
// copies exactly the bytes it announced.
std::mutex collected_mutex;
std::string collected;

void start(const TP_Profiler*, TF_Status* status) {
  run_and_report(status, [] { return TraceRecorder::instance().start(); });
}

void stop(const TP_Profiler*, TF_Status* status) {
  run_and_report(status, [] { return TraceRecorder::instance().stop(); });
}

void collect_data_xspace(const TP_Profiler*, uint8_t* buffer, size_t* size_in_bytes,
                         TF_Status* status) {
  run_and_report(status, [&]() -> Status {
    if (size_in_bytes == nullptr)
      return invalid_argument("collect_data_xspace: size_in_bytes is NULL");
    std::lock_guard<std::mutex> lock(collected_mutex);
    if (buffer == nullptr) {
      collected = serialize_xspace(TraceRecorder::instance().events());
      *size_in_bytes = collected.size();
      return Status();
    }
    if (*size_in_bytes < collected.size()) {
      return invalid_argument("collect_data_xspace: buffer of ", *size_in_bytes, " bytes, ",
                              collected.size(), " announced");
    }
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): serialized XSpace bytes, no NUL
    std::memcpy(buffer, collected.data(), collected.size());
    *size_in_bytes = collected.size();
    return Status();
  });
}

// Nothing inside the structs is owned by the plugin: the recorder is process-wide.
void destroy_profiler(TP_Profiler*) {}
void destroy_profiler_fns(TP_ProfilerFns*) {}

}  // namespace

Status register_profiler(TF_ProfilerRegistrationParams* params) {
  if (params->major_version != TP_MAJOR) {
    return failed_precondition("reference plugin: profiler API major version ",
                               params->major_version, " is not ", TP_MAJOR);
  }
  params->profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
  params->profiler->device_type = kDeviceType;  // a literal: TensorFlow keeps the pointer
  params->profiler_fns->struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  params->profiler_fns->start = start;
  params->profiler_fns->stop = stop;
  params->profiler_fns->collect_data_xspace = collect_data_xspace;
  params->destroy_profiler = destroy_profiler;
  params->destroy_profiler_fns = destroy_profiler_fns;
  return Status();
}

}  // namespace reference_plugin::profiler
