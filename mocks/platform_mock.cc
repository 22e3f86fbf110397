#include "mocks/platform_mock.h"

#include <atomic>
#include <cstring>
#include <string>

#include "mocks/handle_registry.h"
#include "mocks/trampoline.h"

namespace conformance::mocks {
namespace {

std::atomic<void*> g_current_device_fns{nullptr};
std::atomic<void*> g_current_timer_fns{nullptr};

template <typename Mock>
Mock* LiveMock(const std::atomic<void*>& token, MockKind kind) {
  RegisteredMock entry;
  if (!HandleRegistry::Lookup(token.load(), kind, &entry)) return nullptr;
  return static_cast<Mock*>(entry.object);
}

MockDeviceFns* ResolveDeviceFns(const SP_Device*) { return MockDeviceFns::Current(); }
MockTimerFns* ResolveTimerFns(SP_Timer) { return MockTimerFns::Current(); }
MockPlatform* ResolvePlatform(const SP_Platform* p) { return MockPlatform::FromPlatform(p); }
MockPlatform* ResolvePlatformFns(const SP_PlatformFns* f) {
  return MockPlatform::FromPlatformFns(f);
}

#define CONFORMANCE_MOCK_NAME(name) constexpr char k_##name[] = #name;
CONFORMANCE_MOCK_NAME(get_numa_node)
CONFORMANCE_MOCK_NAME(get_memory_bandwidth)
CONFORMANCE_MOCK_NAME(get_gflops)
CONFORMANCE_MOCK_NAME(nanoseconds)
CONFORMANCE_MOCK_NAME(get_device_count)
CONFORMANCE_MOCK_NAME(create_device)
CONFORMANCE_MOCK_NAME(destroy_device)
CONFORMANCE_MOCK_NAME(create_device_fns)
CONFORMANCE_MOCK_NAME(destroy_device_fns)
CONFORMANCE_MOCK_NAME(create_stream_executor)
CONFORMANCE_MOCK_NAME(destroy_stream_executor)
CONFORMANCE_MOCK_NAME(create_timer_fns)
CONFORMANCE_MOCK_NAME(destroy_timer_fns)
CONFORMANCE_MOCK_NAME(destroy_platform)
CONFORMANCE_MOCK_NAME(destroy_platform_fns)
#undef CONFORMANCE_MOCK_NAME

template <auto Method, const char* Name>
constexpr auto kPlatformCall = &Trampoline<Method, &ResolvePlatform, Name>::Call;

constexpr std::size_t kSupportsUnifiedMemoryOffset = 32;  // then use_bfc_allocator 33,
constexpr std::size_t kUseBfcAllocatorOffset = 33;        // force_memory_growth 34

}  // namespace

MockDeviceFns::MockDeviceFns() : token_(HandleRegistry::Register(this, MockKind::kDeviceFns)) {
  g_current_device_fns = token_;
  ON_CALL(*this, GetNumaNode).WillByDefault(testing::Return(0));
  ON_CALL(*this, GetMemoryBandwidth).WillByDefault(testing::Return(int64_t{100} << 30));
  ON_CALL(*this, GetGflops).WillByDefault(testing::Return(1000.0));
}
MockDeviceFns::~MockDeviceFns() { HandleRegistry::Unregister(this); }
MockDeviceFns* MockDeviceFns::Current() {
  return LiveMock<MockDeviceFns>(g_current_device_fns, MockKind::kDeviceFns);
}

void MockDeviceFns::Fill(SP_DeviceFns* table) const {
  *table = SP_DeviceFns{};
  table->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  table->get_numa_node =
      &Trampoline<&MockDeviceFns::GetNumaNode, &ResolveDeviceFns, k_get_numa_node>::Call;
  table->get_memory_bandwidth = &Trampoline<&MockDeviceFns::GetMemoryBandwidth, &ResolveDeviceFns,
                                            k_get_memory_bandwidth>::Call;
  table->get_gflops = &Trampoline<&MockDeviceFns::GetGflops, &ResolveDeviceFns, k_get_gflops>::Call;
}

MockTimerFns::MockTimerFns() : token_(HandleRegistry::Register(this, MockKind::kTimerFns)) {
  g_current_timer_fns = token_;
  ON_CALL(*this, Nanoseconds).WillByDefault([](SP_Timer timer) -> uint64_t {
    MockTimer* t = InMemoryDevice::Timer(timer);
    std::lock_guard lock(t->mutex);
    return t->stop_ns >= t->start_ns ? t->stop_ns - t->start_ns : 0;
  });
}
MockTimerFns::~MockTimerFns() { HandleRegistry::Unregister(this); }
MockTimerFns* MockTimerFns::Current() {
  return LiveMock<MockTimerFns>(g_current_timer_fns, MockKind::kTimerFns);
}

void MockTimerFns::Fill(SP_TimerFns* table) const {
  *table = SP_TimerFns{};
  table->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  table->nanoseconds =
      &Trampoline<&MockTimerFns::Nanoseconds, &ResolveTimerFns, k_nanoseconds>::Call;
}

MockPlatform::MockPlatform(MockStreamExecutor& se, MockDeviceFns& device_fns,
                           MockTimerFns& timer_fns)
    : se_(se),
      device_fns_(device_fns),
      timer_fns_(timer_fns),
      token_(HandleRegistry::Register(this, MockKind::kPlatform)) {
  InstallDefaultActions();
}

MockPlatform::~MockPlatform() { HandleRegistry::Unregister(this); }

void MockPlatform::Unload() {
  HandleRegistry::Unregister(this);
  UnloadTables();
}

void MockPlatform::UnloadTables() {
  se_.Unload();
  HandleRegistry::Unregister(&device_fns_);
  HandleRegistry::Unregister(&timer_fns_);
}

MockPlatform* MockPlatform::FromPlatform(const SP_Platform* platform) {
  RegisteredMock entry;
  if (platform == nullptr || !HandleRegistry::Lookup(platform->ext, MockKind::kPlatform, &entry))
    return nullptr;
  return static_cast<MockPlatform*>(entry.object);
}

MockPlatform* MockPlatform::FromPlatformFns(const SP_PlatformFns* fns) {
  RegisteredMock entry;
  if (fns == nullptr || !HandleRegistry::Lookup(fns->ext, MockKind::kPlatform, &entry))
    return nullptr;
  return static_cast<MockPlatform*>(entry.object);
}

void MockPlatform::FillPlatform(SP_Platform* platform) {
  const GenerationFacts& facts = Facts(se_.generation());
  char* bytes = reinterpret_cast<char*>(platform);
  std::memset(bytes, 0, facts.platform_struct_size);
  if (!faults_.Unwritten(OutParam::kStructSize)) platform->struct_size = facts.platform_struct_size;
  platform->ext = token_;
  platform->name = options_.name.c_str();
  platform->type = options_.type.c_str();
  bytes[kSupportsUnifiedMemoryOffset] = options_.supports_unified_memory ? 1 : 0;
  if (facts.platform_struct_size > kUseBfcAllocatorOffset) {
    bytes[kUseBfcAllocatorOffset] = options_.use_bfc_allocator ? 1 : 0;
  }
  ScribblePastEnd(platform, facts.platform_struct_size, faults_.PastEnd(FilledStruct::kPlatform));
}

void MockPlatform::FillPlatformFns(SP_PlatformFns* fns) {
  *fns = SP_PlatformFns{};
  if (!faults_.Unwritten(OutParam::kStructSize)) fns->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  fns->ext = token_;
  auto set = [this](auto& slot, auto fn, const char* name) {
    slot = faults_.IsNull(name) ? nullptr : fn;
  };
  set(fns->get_device_count, kPlatformCall<&MockPlatform::GetDeviceCount, k_get_device_count>,
      k_get_device_count);
  set(fns->create_device, kPlatformCall<&MockPlatform::CreateDevice, k_create_device>,
      k_create_device);
  set(fns->destroy_device, kPlatformCall<&MockPlatform::DestroyDevice, k_destroy_device>,
      k_destroy_device);
  set(fns->create_device_fns, kPlatformCall<&MockPlatform::CreateDeviceFns, k_create_device_fns>,
      k_create_device_fns);
  set(fns->destroy_device_fns, kPlatformCall<&MockPlatform::DestroyDeviceFns, k_destroy_device_fns>,
      k_destroy_device_fns);
  set(fns->create_stream_executor,
      kPlatformCall<&MockPlatform::CreateStreamExecutor, k_create_stream_executor>,
      k_create_stream_executor);
  set(fns->destroy_stream_executor,
      kPlatformCall<&MockPlatform::DestroyStreamExecutor, k_destroy_stream_executor>,
      k_destroy_stream_executor);
  set(fns->create_timer_fns, kPlatformCall<&MockPlatform::CreateTimerFns, k_create_timer_fns>,
      k_create_timer_fns);
  set(fns->destroy_timer_fns, kPlatformCall<&MockPlatform::DestroyTimerFns, k_destroy_timer_fns>,
      k_destroy_timer_fns);
  ScribblePastEnd(fns, SP_PLATFORM_FNS_STRUCT_SIZE, faults_.PastEnd(FilledStruct::kPlatformFns));
}

void MockPlatform::InstallDefaultActions() {
  ON_CALL(*this, InitPlugin)
      .WillByDefault([this](SE_PlatformRegistrationParams* params, TF_Status* status) {
        if (faults_.Inject("SE_InitPlugin", status)) return;
        const std::size_t prefilled[] = {params->struct_size, params->platform->struct_size,
                                         params->platform_fns->struct_size};
        FillPlatform(params->platform);
        FillPlatformFns(params->platform_fns);
        faults_.ApplyStructSize("se_params", prefilled[0], &params->struct_size);
        faults_.ApplyStructSize("platform", prefilled[1], &params->platform->struct_size);
        faults_.ApplyStructSize("platform_fns", prefilled[2], &params->platform_fns->struct_size);
        params->destroy_platform = faults_.IsNull(k_destroy_platform)
                                       ? nullptr
                                       : &Trampoline<&MockPlatform::DestroyPlatform,
                                                     &ResolvePlatform, k_destroy_platform>::Call;
        params->destroy_platform_fns =
            faults_.IsNull(k_destroy_platform_fns)
                ? nullptr
                : &Trampoline<&MockPlatform::DestroyPlatformFns, &ResolvePlatformFns,
                              k_destroy_platform_fns>::Call;
        ReportOk(faults_, status);
      });
  ON_CALL(*this, GetDeviceCount)
      .WillByDefault([this](const SP_Platform*, int* count, TF_Status* status) {
        if (faults_.Inject(k_get_device_count, status)) return;
        if (!faults_.Unwritten(OutParam::kDeviceCount)) *count = options_.device_count;
        ReportOk(faults_, status);
      });
  ON_CALL(*this, CreateDevice)
      .WillByDefault([this](const SP_Platform*, SE_CreateDeviceParams* params, TF_Status* status) {
        if (faults_.Inject(k_create_device, status)) return;
        if (params->ordinal < 0 || params->ordinal >= options_.device_count) {
          const std::string message = "create_device: ordinal " + std::to_string(params->ordinal) +
                                      " is out of range; the mock has " +
                                      std::to_string(options_.device_count) + " device(s)";
          TF_SetStatus(status, TF_INVALID_ARGUMENT, message.c_str());
          return;
        }
        const std::size_t prefilled = params->device->struct_size;
        *params->device = se_.MakeDevice(params->ordinal);
        faults_.ApplyStructSize("device", prefilled, &params->device->struct_size);
        ScribblePastEnd(params->device, SP_DEVICE_STRUCT_SIZE,
                        faults_.PastEnd(FilledStruct::kDevice));
        ReportOk(faults_, status);
      });
  ON_CALL(*this, DestroyDevice).WillByDefault([this](const SP_Platform*, SP_Device* device) {
    se_.ReleaseDevice(device->ordinal);
    device->device_handle = nullptr;
  });
  ON_CALL(*this, CreateDeviceFns)
      .WillByDefault(
          [this](const SP_Platform*, SE_CreateDeviceFnsParams* params, TF_Status* status) {
            if (faults_.Inject(k_create_device_fns, status)) return;
            const std::size_t prefilled = params->device_fns->struct_size;
            device_fns_.Fill(params->device_fns);
            faults_.ApplyStructSize("device_fns", prefilled, &params->device_fns->struct_size);
            ScribblePastEnd(params->device_fns, SP_DEVICE_FNS_STRUCT_SIZE,
                            faults_.PastEnd(FilledStruct::kDeviceFns));
            ReportOk(faults_, status);
          });
  ON_CALL(*this, CreateStreamExecutor)
      .WillByDefault(
          [this](const SP_Platform*, SE_CreateStreamExecutorParams* params, TF_Status* status) {
            if (faults_.Inject(k_create_stream_executor, status)) return;
            const std::size_t prefilled = params->stream_executor->struct_size;
            se_.FillTable(params->stream_executor);
            faults_.ApplyStructSize("stream_executor", prefilled,
                                    &params->stream_executor->struct_size);
            ReportOk(faults_, status);
          });
  ON_CALL(*this, CreateTimerFns)
      .WillByDefault([this](const SP_Platform*, SP_TimerFns* fns, TF_Status* status) {
        if (faults_.Inject(k_create_timer_fns, status)) return;
        const std::size_t prefilled = fns->struct_size;
        timer_fns_.Fill(fns);
        faults_.ApplyStructSize("timer_fns", prefilled, &fns->struct_size);
        ScribblePastEnd(fns, SP_TIMER_FNS_STRUCT_SIZE, faults_.PastEnd(FilledStruct::kTimerFns));
        ReportOk(faults_, status);
      });
  // TensorFlow calls both destroy callbacks when it unloads; the platform's own token stays
  // valid until the second one so either order works.
  ON_CALL(*this, DestroyPlatform).WillByDefault([this](SP_Platform*) {
    UnloadTables();
    if (++destroy_calls_ == 2) Unload();
  });
  ON_CALL(*this, DestroyPlatformFns).WillByDefault([this](SP_PlatformFns*) {
    if (++destroy_calls_ == 2) Unload();
  });
}

MockPlugin::MockPlugin(Generation generation)
    : se(generation), platform(se, device_fns, timer_fns) {}

}  // namespace conformance::mocks
