// The reference profiler: a session started through TF_InitProfiler's callbacks sees the
// copies that ran on the plugin's streams, as events of a serialized XSpace that parses with
// real protobuf (specs/proto/xplane.proto).
#include <cstring>
#include <string>
#include <vector>

#include "plugin_test_support.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "xplane.pb.h"

namespace reference_plugin_test {
namespace {

using InitProfilerFn = void (*)(TF_ProfilerRegistrationParams*, TF_Status*);

struct Profiler {
  TP_Profiler profiler{};
  TP_ProfilerFns fns{};
  TfStatus init_status;
  Profiler() {
    profiler.struct_size = TP_PROFILER_STRUCT_SIZE;
    fns.struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
    TF_ProfilerRegistrationParams params{};
    params.struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
    params.major_version = TP_MAJOR;
    params.profiler = &profiler;
    params.profiler_fns = &fns;
    reinterpret_cast<InitProfilerFn>(plugin_symbol("TF_InitProfiler"))(&params, init_status);
  }

  conformance::proto::XSpace Collect() {
    TfStatus status;
    size_t size = 0;
    fns.collect_data_xspace(&profiler, nullptr, &size, status);
    EXPECT_TRUE(status.ok()) << describe(status);
    std::vector<uint8_t> bytes(size);
    status.poison();
    fns.collect_data_xspace(&profiler, bytes.data(), &size, status);
    EXPECT_TRUE(status.ok()) << describe(status);
    conformance::proto::XSpace space;
    EXPECT_TRUE(space.ParseFromArray(bytes.data(), static_cast<int>(size)));
    return space;
  }
};

class ReferenceProfilerTest : public ReferencePluginTest {};

TEST_F(ReferenceProfilerTest, RegistersForTheDeviceType) {
  Profiler p;
  ASSERT_TRUE(p.init_status.ok()) << describe(p.init_status);
  EXPECT_STREQ(p.profiler.device_type, "REFDEV");
  EXPECT_NE(p.fns.start, nullptr);
  EXPECT_NE(p.fns.stop, nullptr);
  EXPECT_NE(p.fns.collect_data_xspace, nullptr);
}

TEST_F(ReferenceProfilerTest, StopWithoutStartIsAnErrorNotACrash) {
  Profiler p;
  TfStatus status;
  p.fns.stop(&p.profiler, status);
  EXPECT_EQ(status.code(), TF_FAILED_PRECONDITION);
}

TEST_F(ReferenceProfilerTest, CopiesOfASessionBecomeEventsOnTheirStreamsLine) {
  Profiler p;
  TestStream stream(device());
  DeviceBuffer buffer(device(), 256);
  std::vector<uint8_t> host(256, 7), back(256, 0);
  TfStatus start, copy_in, copy_out, stop;
  p.fns.start(&p.profiler, start);
  ASSERT_TRUE(start.ok()) << describe(start);
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), host.data(), host.size(), copy_in);
  se().memcpy_dtoh(device().get(), stream.get(), back.data(), buffer.get(), back.size(), copy_out);
  ASSERT_EQ(stream.wait(), TF_OK);
  p.fns.stop(&p.profiler, stop);
  ASSERT_TRUE(stop.ok()) << describe(stop);

  const conformance::proto::XSpace space = p.Collect();
  ASSERT_EQ(space.planes_size(), 1);
  const auto& plane = space.planes(0);
  EXPECT_EQ(plane.name(), "/device:REFDEV:0");
  ASSERT_EQ(plane.lines_size(), 1);
  const auto& line = plane.lines(0);
  EXPECT_EQ(line.name().rfind("refdev0.s", 0), 0u) << line.name();
  ASSERT_EQ(line.events_size(), 2);
  std::vector<std::string> names;
  for (const auto& event : line.events()) {
    ASSERT_TRUE(plane.event_metadata().contains(event.metadata_id()));
    names.push_back(plane.event_metadata().at(event.metadata_id()).name());
    EXPECT_GE(event.duration_ps(), 0);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"memcpy_htod", "memcpy_dtoh"}));
  // Work after the session is not traced.
  se().memcpy_htod(device().get(), stream.get(), buffer.get(), host.data(), host.size(), copy_in);
  ASSERT_EQ(stream.wait(), TF_OK);
  EXPECT_EQ(p.Collect().planes(0).lines(0).events_size(), 2);
}

}  // namespace
}  // namespace reference_plugin_test
