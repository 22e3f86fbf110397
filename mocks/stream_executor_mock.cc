#include "mocks/stream_executor_mock.h"

#include <cstring>
#include <sstream>

#include "mocks/handle_registry.h"
#include "mocks/trampoline.h"

namespace conformance::mocks {
namespace {

MockStreamExecutor* Resolve(const SP_Device* device) {
  return MockStreamExecutor::FromDevice(device);
}

// Names as template arguments need static storage.
#define CONFORMANCE_MOCK_NAME(field, method) constexpr char k##method##Name[] = #field;
CONFORMANCE_MOCK_SE_CALLBACKS(CONFORMANCE_MOCK_NAME)
#undef CONFORMANCE_MOCK_NAME

void* Pointer(Callback callback) {
  switch (callback) {
#define CONFORMANCE_MOCK_POINTER(field, method) \
  case Callback::k##method:                     \
    return reinterpret_cast<void*>(             \
        &Trampoline<&MockStreamExecutor::method, &Resolve, k##method##Name>::Call);
    CONFORMANCE_MOCK_SE_CALLBACKS(CONFORMANCE_MOCK_POINTER)
#undef CONFORMANCE_MOCK_POINTER
  }
  return nullptr;
}

constexpr int kCallbackCount = static_cast<int>(Callback::kHostCallback) + 1;

}  // namespace

MockStreamExecutor::MockStreamExecutor(Generation generation, uint64_t memory_bytes_per_device)
    : generation_(generation), memory_bytes_per_device_(memory_bytes_per_device) {
  InstallDefaultActions();
}

MockStreamExecutor::~MockStreamExecutor() { Unload(); }

void MockStreamExecutor::Unload() { HandleRegistry::Unregister(this); }

SP_Device MockStreamExecutor::MakeDevice(int ordinal) {
  std::lock_guard lock(mutex_);
  void*& token = device_tokens_[ordinal];
  if (token == nullptr) token = HandleRegistry::Register(this, MockKind::kStreamExecutor, ordinal);
  SP_Device device{};
  device.struct_size = SP_DEVICE_STRUCT_SIZE;
  device.ordinal = ordinal;
  device.device_handle = token;
  device.hardware_name = "mock device";
  device.device_vendor = "plugin_conformance";
  return device;
}

void MockStreamExecutor::ReleaseDevice(int ordinal) {
  std::unique_ptr<InMemoryDevice> released;
  std::lock_guard lock(mutex_);
  auto it = devices_.find(ordinal);
  if (it == devices_.end()) return;
  released = std::move(it->second);
  devices_.erase(it);
}

InMemoryDevice& MockStreamExecutor::device(int ordinal) {
  std::lock_guard lock(mutex_);
  std::unique_ptr<InMemoryDevice>& slot = devices_[ordinal];
  if (!slot) slot = std::make_unique<InMemoryDevice>(memory_bytes_per_device_);
  return *slot;
}

InMemoryDevice& MockStreamExecutor::DeviceOf(const SP_Device* sp_device) {
  int ordinal = 0;
  FromDevice(sp_device, &ordinal);
  return device(ordinal);
}

MockStreamExecutor* MockStreamExecutor::FromDevice(const SP_Device* device, int* ordinal) {
  if (device == nullptr) return nullptr;
  RegisteredMock entry;
  if (!HandleRegistry::Lookup(device->device_handle, MockKind::kStreamExecutor, &entry))
    return nullptr;
  if (ordinal != nullptr) *ordinal = entry.ordinal;
  return static_cast<MockStreamExecutor*>(entry.object);
}

void MockStreamExecutor::FillTable(void* storage) const {
  const GenerationFacts& facts = Facts(generation_);
  char* bytes = static_cast<char*>(storage);
  std::memset(bytes, 0, facts.stream_executor_size);
  if (!faults_.Unwritten(OutParam::kStructSize)) {
    const std::size_t size = facts.stream_executor_size;
    std::memcpy(bytes, &size, sizeof size);
  }
  for (int i = 0; i < kCallbackCount; ++i) {
    const auto callback = static_cast<Callback>(i);
    const std::optional<std::size_t> offset = CallbackOffset(callback, generation_);
    if (!offset || faults_.IsNull(CallbackName(callback))) continue;
    void* fn = Pointer(callback);
    std::memcpy(bytes + *offset, &fn, sizeof fn);
  }
  ScribblePastEnd(storage, facts.stream_executor_size,
                  faults_.PastEnd(FilledStruct::kStreamExecutor));
}

SP_StreamExecutor MockStreamExecutor::Table() const {
  if (generation_ != Generation::kNewest) {
    ADD_FAILURE() << "MockStreamExecutor::Table() gives the newest 288-byte SP_StreamExecutor; a "
                  << Facts(generation_).name
                  << " mock has a different layout: use FillTable() on storage of "
                  << Facts(generation_).stream_executor_size << " bytes";
  }
  SP_StreamExecutor table{};
  if (generation_ == Generation::kNewest) FillTable(&table);
  return table;
}

Gate MockStreamExecutor::DelayStream(const SP_Device* sp_device, SP_Stream stream) {
  Gate gate;
  WorkQueue* queue = DeviceOf(sp_device).Queue(stream);
  if (queue == nullptr) {
    ADD_FAILURE() << "DelayStream: the stream was not created by this mock's device";
    gate.Open();
    return gate;
  }
  queue->Enqueue([gate] { gate.Wait(); });
  return gate;
}

MockStreamExecutor& MockStreamExecutor::RequireCallback(std::string_view call, const char* file,
                                                        int line) {
  const std::string_view method = call.substr(0, call.find('('));
  const std::optional<Callback> callback = ParseCallback(method);
  if (callback && !Has(*callback)) {
    ADD_FAILURE_AT(file, line) << "EXPECT_MOCK_CALL(" << call << "): SP_StreamExecutor."
                               << CallbackName(*callback) << " does not exist in the "
                               << Facts(generation_).name << " header generation ("
                               << Facts(generation_).stream_executor_size
                               << "-byte SP_StreamExecutor), so TensorFlow can never call it; "
                                  "build the mock as Generation::kNewest to test it";
  }
  return *this;
}

}  // namespace conformance::mocks
