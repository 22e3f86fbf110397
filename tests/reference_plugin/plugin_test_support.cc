#include "plugin_test_support.h"

#include <dlfcn.h>

#include <cstdlib>
#include <random>

namespace reference_plugin_test {

TfStatus::TfStatus() : status_(TF_NewStatus()) { poison(); }
TfStatus::~TfStatus() { TF_DeleteStatus(status_); }
void TfStatus::poison() { TF_SetStatus(status_, TF_DATA_LOSS, "poison: status not written"); }

std::string describe(const TfStatus& status) {
  return std::to_string(status.code()) + ": " + status.message();
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
  if (const char* old = std::getenv(name)) previous_ = old;
  if (value != nullptr) {
    setenv(name, value, 1);
  } else {
    unsetenv(name);
  }
}

ScopedEnv::~ScopedEnv() {
  if (previous_) {
    setenv(name_.c_str(), previous_->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

void* plugin_symbol(const char* name) {
  static void* handle = [] {
    void* h = dlopen(REFERENCE_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr)
      ADD_FAILURE() << "dlopen(" << REFERENCE_PLUGIN_PATH << ") failed: " << dlerror();
    return h;
  }();
  if (handle == nullptr) return nullptr;
  void* symbol = dlsym(handle, name);
  if (symbol == nullptr) ADD_FAILURE() << name << " not exported";
  return symbol;
}

InitPluginFn plugin_init_function() {
  static InitPluginFn init = reinterpret_cast<InitPluginFn>(plugin_symbol("SE_InitPlugin"));
  return init;
}

Registration::CoreStructs Registration::fresh_core_structs() {
  CoreStructs core;
  core.params.struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
  core.params.major_version = SE_MAJOR;
  core.params.minor_version = SE_MINOR;
  core.params.patch_version = SE_PATCH;
  core.platform.struct_size = SP_PLATFORM_STRUCT_SIZE;
  core.platform_fns.struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  return core;
}

Registration::Registration() {
  InitPluginFn init = plugin_init_function();
  if (init == nullptr) return;

  CoreStructs core = fresh_core_structs();
  core.params.platform = &core.platform;
  core.params.platform_fns = &core.platform_fns;
  init(&core.params, init_status_);
  if (!init_status_.ok()) return;
  // From here on the plugin only ever sees our copies, as with TensorFlow.
  params_ = core.params;
  platform_ = core.platform;
  platform_fns_ = core.platform_fns;
  params_.platform = &platform_;
  params_.platform_fns = &platform_fns_;

  TfStatus status;
  SE_CreateDeviceFnsParams device_fns_params{SE_CREATE_DEVICE_FNS_PARAMS_STRUCT_SIZE, nullptr,
                                             &device_fns_};
  device_fns_.struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  platform_fns_.create_device_fns(&platform_, &device_fns_params, status);
  if (!status.ok()) {
    ADD_FAILURE() << "create_device_fns: " << describe(status);
    return;
  }
  device_fns_created_ = true;

  status.poison();
  SE_CreateStreamExecutorParams se_params{SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE, nullptr,
                                          &se_};
  se_.struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  platform_fns_.create_stream_executor(&platform_, &se_params, status);
  if (!status.ok()) {
    ADD_FAILURE() << "create_stream_executor: " << describe(status);
    return;
  }
  se_created_ = true;

  status.poison();
  timer_fns_.struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  platform_fns_.create_timer_fns(&platform_, &timer_fns_, status);
  if (!status.ok()) {
    ADD_FAILURE() << "create_timer_fns: " << describe(status);
    return;
  }
  timer_fns_created_ = true;
  ok_ = true;
}

Registration::~Registration() {
  if (!init_status_.ok()) return;
  if (device_fns_created_) platform_fns_.destroy_device_fns(&platform_, &device_fns_);
  if (se_created_) platform_fns_.destroy_stream_executor(&platform_, &se_);
  if (timer_fns_created_) platform_fns_.destroy_timer_fns(&platform_, &timer_fns_);
  params_.destroy_platform(&platform_);
  params_.destroy_platform_fns(&platform_fns_);
}

int Registration::device_count() const {
  TfStatus status;
  int count = -1;
  platform_fns_.get_device_count(&platform_, &count, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  return count;
}

TestDevice::TestDevice(const Registration& registration, int ordinal)
    : registration_(registration) {
  SP_Device core_storage{};
  core_storage.struct_size = SP_DEVICE_STRUCT_SIZE;
  SE_CreateDeviceParams params{SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE, nullptr, ordinal,
                               &core_storage};
  TfStatus status;
  registration.platform_fns().create_device(registration.platform(), &params, status);
  if (!status.ok()) {
    ADD_FAILURE() << "create_device(" << ordinal << "): " << describe(status);
    return;
  }
  device_ = core_storage;  // the core keeps a copy and passes that from now on
  created_ = true;
}

TestDevice::~TestDevice() {
  if (created_) registration_.platform_fns().destroy_device(registration_.platform(), &device_);
}

DeviceBuffer::DeviceBuffer(const TestDevice& device, uint64_t size) : device_(device) {
  memory_.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  device.se().allocate(device.get(), size, /*memory_space=*/0, &memory_);
}

DeviceBuffer::~DeviceBuffer() { release(); }

void DeviceBuffer::release() {
  if (memory_.opaque == nullptr) return;
  // Like the core: a fresh struct rebuilt from (opaque, size, payload).
  SP_DeviceMemoryBase rebuilt{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, memory_.opaque,
                              memory_.size, memory_.payload};
  device_.se().deallocate(device_.get(), &rebuilt);
  memory_.opaque = nullptr;
}

SP_DeviceMemoryBase DeviceBuffer::at(uint64_t offset, uint64_t size) const {
  return SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr,
                             static_cast<uint8_t*>(memory_.opaque) + offset, size, 0};
}

TestStream::TestStream(const TestDevice& device) : device_(device) {
  TfStatus status;
  device.se().create_stream(device.get(), &stream_, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  EXPECT_NE(stream_, nullptr);
}

TestStream::~TestStream() { destroy(); }

void TestStream::destroy() {
  if (stream_ != nullptr) device_.se().destroy_stream(device_.get(), stream_);
  stream_ = nullptr;
}

TF_Code TestStream::wait(std::string* message) {
  TfStatus status;
  device_.se().block_host_until_done(device_.get(), stream_, status);
  if (message != nullptr) *message = status.message();
  return status.code();
}

TF_Code TestStream::status(std::string* message) {
  TfStatus status;
  device_.se().get_stream_status(device_.get(), stream_, status);
  if (message != nullptr) *message = status.message();
  return status.code();
}

TestEvent::TestEvent(const TestDevice& device) : device_(device) {
  TfStatus status;
  device.se().create_event(device.get(), &event_, status);
  EXPECT_TRUE(status.ok()) << describe(status);
}

TestEvent::~TestEvent() { destroy(); }

void TestEvent::destroy() {
  if (event_ != nullptr) device_.se().destroy_event(device_.get(), event_);
  event_ = nullptr;
}

SE_EventStatus TestEvent::state() const {
  return device_.se().get_event_status(device_.get(), event_);
}

TF_Code TestEvent::record(const TestStream& stream) {
  TfStatus status;
  device_.se().record_event(device_.get(), stream.get(), event_, status);
  return status.code();
}

Gate::Gate() : state_(std::make_shared<State>()) {}

Gate::~Gate() { open(); }

void Gate::enqueue(const TestDevice& device, const TestStream& stream) {
  auto* arg = new std::shared_ptr<State>(state_);
  if (!device.se().host_callback(device.get(), stream.get(), &Gate::block, arg)) {
    delete arg;
    ADD_FAILURE() << "host_callback returned false";
  }
}

void Gate::block(void* arg, TF_Status* status) {
  std::unique_ptr<std::shared_ptr<State>> owned(static_cast<std::shared_ptr<State>*>(arg));
  State& state = **owned;
  std::unique_lock lock(state.mutex);
  ++state.reached;
  state.changed.notify_all();
  state.changed.wait(lock, [&state] { return state.open; });
  TF_SetStatus(status, TF_OK, "");
}

void Gate::open() {
  std::lock_guard lock(state_->mutex);
  state_->open = true;
  state_->changed.notify_all();
}

void Gate::wait_until_reached() {
  std::unique_lock lock(state_->mutex);
  state_->changed.wait(lock, [this] { return state_->reached > 0; });
}

namespace {

struct HostFunction {
  std::function<void()> fn;
  TF_Code code;
  std::string message;

  static void run(void* arg, TF_Status* status) {
    std::unique_ptr<HostFunction> self(static_cast<HostFunction*>(arg));  // exactly once
    self->fn();
    TF_SetStatus(status, self->code, self->message.c_str());
  }
};

}  // namespace

void enqueue_host_function(const TestDevice& device, const TestStream& stream,
                           std::function<void()> fn, TF_Code code, const char* message) {
  auto* arg = new HostFunction{std::move(fn), code, message};
  if (!device.se().host_callback(device.get(), stream.get(), &HostFunction::run, arg)) {
    delete arg;
    ADD_FAILURE() << "host_callback returned false";
  }
}

std::vector<uint8_t> read_device(const TestDevice& device, const SP_DeviceMemoryBase& memory,
                                 uint64_t size) {
  std::vector<uint8_t> bytes(size);
  TfStatus status;
  device.se().sync_memcpy_dtoh(device.get(), bytes.data(), &memory, size, status);
  EXPECT_TRUE(status.ok()) << describe(status);
  return bytes;
}

void write_device(const TestDevice& device, SP_DeviceMemoryBase memory,
                  const std::vector<uint8_t>& bytes) {
  TfStatus status;
  device.se().sync_memcpy_htod(device.get(), &memory, bytes.data(), bytes.size(), status);
  EXPECT_TRUE(status.ok()) << describe(status);
}

std::vector<uint8_t> pattern_bytes(uint64_t size, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(size);
  for (auto& byte : bytes) byte = static_cast<uint8_t>(random());
  return bytes;
}

SP_AllocatorStats allocator_stats(const TestDevice& device) {
  SP_AllocatorStats stats{};
  stats.struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  EXPECT_TRUE(device.se().get_allocator_stats(device.get(), &stats));
  return stats;
}

MemoryUsage memory_usage(const TestDevice& device) {
  MemoryUsage usage;
  EXPECT_TRUE(device.se().device_memory_usage(device.get(), &usage.free, &usage.total));
  return usage;
}

void ReferencePluginTest::SetUp() {
  registration_ = std::make_unique<Registration>();
  ASSERT_TRUE(registration_->init_status().ok()) << describe(registration_->init_status());
  ASSERT_TRUE(registration_->ok());
  device_ = std::make_unique<TestDevice>(*registration_, 0);
  ASSERT_TRUE(device_->ok());
}

void ReferencePluginTest::TearDown() {
  device_.reset();
  registration_.reset();
}

}  // namespace reference_plugin_test
