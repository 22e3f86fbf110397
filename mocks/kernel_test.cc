#include "mocks/kernel_test.h"

#include <map>
#include <mutex>
#include <sstream>
#include <variant>

#include "core/datatype.h"
#include "core/kernel_instance.h"
#include "core/node.h"
#include "core/op_registry.h"
#include "mocks/catalogue_ops.h"

namespace conformance::mocks {
namespace {

using ::testing::NiceMock;

// The device allocator behind a kernel's outputs and temporaries: the table's allocate.
class TableAllocator : public core::MemoryAllocator {
 public:
  TableAllocator(const SP_StreamExecutor& table, const SP_Device& device)
      : table_(table), device_(device) {}
  std::string Name() const override { return "fake kernel context device"; }
  void* Allocate(std::size_t bytes) override {
    SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, nullptr, 0, 0};
    table_.allocate(&device_, bytes, 0, &memory);
    return memory.opaque;
  }
  void Deallocate(void* ptr, std::size_t bytes) override {
    SP_DeviceMemoryBase memory{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, ptr, bytes, 0};
    table_.deallocate(&device_, &memory);
  }

 private:
  const SP_StreamExecutor& table_;
  const SP_Device& device_;
};

SP_DeviceMemoryBase MemoryOf(const core::Tensor& t) {
  return SP_DeviceMemoryBase{SP_DEVICE_MEMORY_BASE_STRUCT_SIZE, nullptr, t.data(), t.ByteSize(), 0};
}

core::Status StatusOf(TF_Status* status, const char* what) {
  core::Status s = core::FromCStatus(status);
  if (!s.ok()) s.message = std::string(what) + ": " + s.message;
  return s;
}

class ScopedStatus {
 public:
  ScopedStatus() : status_(TF_NewStatus()) {}
  ~ScopedStatus() { TF_DeleteStatus(status_); }
  operator TF_Status*() const { return status_; }

 private:
  TF_Status* status_;
};

std::optional<TF_DataType> DataTypeNamed(std::string_view name) {
  for (int i = 1; i <= 32; ++i) {
    const auto dtype = static_cast<TF_DataType>(i);
    if (core::DataTypeName(dtype) == name) return dtype;
  }
  return std::nullopt;
}

// "x: T" -> {x, T}; nullopt for lists ("N * T"), refs and type lists we do not model.
std::optional<OpArg> ParseArgSpec(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos) return std::nullopt;
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
  };
  OpArg arg{trim(spec.substr(0, colon)), trim(spec.substr(colon + 1))};
  if (arg.type.find_first_of("*()") != std::string::npos) return std::nullopt;
  return arg;
}

std::string Names(const std::vector<OpArg>& args) {
  std::string names;
  for (const OpArg& arg : args) names += (names.empty() ? "" : ", ") + arg.name;
  return names;
}

// Each TF_InitKernel runs once per process; its registrations are kept by function.
const std::vector<core::KernelRegistration>& RegistrationsOf(void (*init_kernel)()) {
  static std::mutex mutex;
  static auto* registered = new std::map<void (*)(), std::vector<core::KernelRegistration>>;
  std::lock_guard lock(mutex);
  auto it = registered->find(init_kernel);
  if (it != registered->end()) return it->second;
  core::Recorder& recorder = core::Recorder::Instance();
  std::ostringstream label;
  label << "fake kernel context: TF_InitKernel at " << reinterpret_cast<void*>(init_kernel);
  const std::string previous = recorder.CurrentPlugin();
  recorder.SetCurrentPlugin(label.str());
  init_kernel();
  recorder.SetCurrentPlugin(previous);
  std::vector<core::KernelRegistration>& ours = (*registered)[init_kernel];
  for (core::KernelRegistration& kernel : recorder.Kernels()) {
    if (kernel.plugin == label.str()) ours.push_back(std::move(kernel));
  }
  return ours;
}

}  // namespace

core::Status MockKernelApi::Dispatch(const core::KernelApiCall& call) {
  static const core::Shape kNoShape;
  const core::Shape& shape = call.shape != nullptr ? *call.shape : kNoShape;
  if (call.function == "TF_GetInput") return GetInput(call.index);
  if (call.function == "TF_AllocateOutput") return AllocateOutput(call.index, shape);
  if (call.function == "TF_ForwardInputOrAllocateOutput")
    return ForwardInputOrAllocateOutput(call.index, shape);
  if (call.function == "TF_AllocateTemp") return AllocateTemp(call.dtype, shape);
  if (call.function == "TF_SetOutput") return SetOutput(call.index);
  if (call.function == "TF_GetStream") return GetStream();
  return core::Status();
}

KernelDevice::KernelDevice(std::string device_type)
    : owned_(std::make_unique<NiceMock<MockStreamExecutor>>()), type_(std::move(device_type)) {
  table_ = owned_->Table();
  device_ = owned_->MakeDevice(0);
  Init();
}

KernelDevice::KernelDevice(MockStreamExecutor& se, std::string device_type, int ordinal)
    : type_(std::move(device_type)) {
  // Older generations write host_callback at 256 (where the newest header has mem_zero); the
  // callbacks this class uses (allocate .. block_host_until_done) sit at the same offsets in all.
  se.FillTable(&table_);
  device_ = se.MakeDevice(ordinal);
  Init();
}

KernelDevice::KernelDevice(const SP_StreamExecutor& table, const SP_Device& device,
                           std::string device_type)
    : table_(table), device_(device), type_(std::move(device_type)) {
  Init();
}

void KernelDevice::Init() {
  ScopedStatus status;
  table_.create_stream(&device_, &stream_, status);
  if (TF_GetCode(status) != TF_OK)
    ADD_FAILURE() << "KernelDevice: create_stream failed: " << TF_Message(status);
  allocator_ = std::make_shared<TableAllocator>(table_, device_);
}

KernelDevice::~KernelDevice() {
  if (stream_ != nullptr) table_.destroy_stream(&device_, stream_);
}

core::DeviceDescriptor KernelDevice::Descriptor() const {
  return core::DeviceDescriptor::Pluggable(type_, stream_, device_.ordinal, allocator_);
}

core::Tensor KernelDevice::ToDevice(const core::Tensor& host, core::Status* status) const {
  const core::DeviceDescriptor descriptor = Descriptor();
  core::Tensor on_device =
      core::Tensor::Allocate(host.dtype(), host.shape(), status, allocator_, descriptor.name);
  if (!status->ok() || on_device.ByteSize() == 0) return on_device;
  SP_DeviceMemoryBase destination = MemoryOf(on_device);
  ScopedStatus copy;
  table_.sync_memcpy_htod(&device_, &destination, host.data(), on_device.ByteSize(), copy);
  *status = StatusOf(copy, "sync_memcpy_htod");
  return on_device;
}

core::Tensor KernelDevice::ToHost(const core::Tensor& on_device, core::Status* status) const {
  core::Tensor host = core::Tensor::Allocate(on_device.dtype(), on_device.shape(), status);
  if (!status->ok() || host.ByteSize() == 0) return host;
  const SP_DeviceMemoryBase source = MemoryOf(on_device);
  ScopedStatus copy;
  table_.sync_memcpy_dtoh(&device_, host.data(), &source, host.ByteSize(), copy);
  *status = StatusOf(copy, "sync_memcpy_dtoh");
  return host;
}

core::Status KernelDevice::Synchronize() const {
  ScopedStatus status;
  table_.block_host_until_done(&device_, stream_, status);
  return StatusOf(status, "block_host_until_done");
}

std::optional<OpSignature> FindOpSignature(std::string_view op) {
  if (std::optional<core::OpDefinition> registered = core::FindOpDefinition(op)) {
    OpSignature signature;
    for (const std::string& spec : registered->registration.inputs) {
      std::optional<OpArg> arg = ParseArgSpec(spec);
      if (!arg) return std::nullopt;
      signature.inputs.push_back(*arg);
    }
    for (const std::string& spec : registered->registration.outputs) {
      std::optional<OpArg> arg = ParseArgSpec(spec);
      if (!arg) return std::nullopt;
      signature.outputs.push_back(*arg);
    }
    return signature;
  }
  if (const CatalogueOp* op_def = FindCatalogueOp(op)) {
    OpSignature signature;
    for (const CatalogueArg& arg : op_def->inputs) signature.inputs.push_back({arg.name, arg.type});
    for (const CatalogueArg& arg : op_def->outputs)
      signature.outputs.push_back({arg.name, arg.type});
    return signature;
  }
  return std::nullopt;
}

FakeKernelContext::FakeKernelContext(void (*init_kernel)(), std::string op, KernelDevice& device)
    : device_(device), init_kernel_(init_kernel), op_(std::move(op)) {}

FakeKernelContext::FakeKernelContext(core::KernelRegistration registration, KernelDevice& device)
    : device_(device), op_(registration.op_name), registration_(std::move(registration)) {}

FakeKernelContext& FakeKernelContext::Attr(std::string name, core::AttrValue value) {
  attrs_[std::move(name)] = std::move(value);
  return *this;
}

FakeKernelContext& FakeKernelContext::Input(core::Tensor host_value) {
  inputs_.push_back(std::move(host_value));
  return *this;
}

FakeKernelContext& FakeKernelContext::Output(TF_DataType dtype) {
  outputs_.push_back(dtype);
  return *this;
}

FakeKernelContext& FakeKernelContext::Signature(OpSignature signature) {
  signature_ = std::move(signature);
  return *this;
}

std::optional<core::KernelRegistration> FakeKernelContext::FindRegistration() {
  if (registration_) return registration_;
  for (const core::KernelRegistration& kernel : RegistrationsOf(init_kernel_)) {
    if (kernel.op_name != op_ || kernel.device_type != device_.type()) continue;
    bool constraints_hold = true;
    for (const auto& [attr, dtype] : kernel.type_constraints) {
      auto it = attrs_.find(attr);
      const auto* value = it == attrs_.end() ? nullptr : std::get_if<TF_DataType>(&it->second);
      constraints_hold = constraints_hold && value != nullptr && static_cast<int>(*value) == dtype;
    }
    if (constraints_hold) return kernel;
  }
  ADD_FAILURE() << "FakeKernelContext(" << op_ << "): TF_InitKernel registered no " << op_
                << " kernel for device type " << device_.type()
                << " whose type constraints match the attrs";
  return std::nullopt;
}

// Checks the inputs against the op's signature and works out the output dtypes.
bool FakeKernelContext::Validate(std::vector<TF_DataType>* outputs) {
  const std::optional<OpSignature> signature = signature_ ? signature_ : FindOpSignature(op_);
  *outputs = outputs_;
  if (!signature) {
    if (outputs_.empty()) {
      ADD_FAILURE() << "FakeKernelContext(" << op_
                    << "): the op's signature is unknown; declare its "
                    << "outputs with Output(dtype) or give Signature({...})";
      return false;
    }
    return true;
  }
  const std::string prefix = "FakeKernelContext(" + op_ + "): ";
  if (inputs_.size() != signature->inputs.size()) {
    ADD_FAILURE() << prefix << inputs_.size() << " input(s) given, the op takes "
                  << signature->inputs.size() << " (" << Names(signature->inputs) << ")";
    return false;
  }
  auto dtype_of = [&](const OpArg& arg, TF_DataType* dtype) {
    if (std::optional<TF_DataType> fixed = DataTypeNamed(arg.type)) return *dtype = *fixed, true;
    auto it = attrs_.find(arg.type);
    const auto* value = it == attrs_.end() ? nullptr : std::get_if<TF_DataType>(&it->second);
    if (value == nullptr) {
      ADD_FAILURE() << prefix << "argument " << arg.name << " has type attr " << arg.type
                    << ", which is not set; add Attr(\"" << arg.type << "\", <dtype>)";
      return false;
    }
    return *dtype = *value, true;
  };
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    TF_DataType wanted = TF_FLOAT;
    if (!dtype_of(signature->inputs[i], &wanted)) return false;
    if (inputs_[i].dtype() != wanted) {
      ADD_FAILURE() << prefix << "input " << i << " (" << signature->inputs[i].name << ") is "
                    << core::DataTypeName(inputs_[i].dtype()) << " but the op wants "
                    << signature->inputs[i].type << " = " << core::DataTypeName(wanted);
      return false;
    }
  }
  if (outputs_.empty()) {
    for (const OpArg& arg : signature->outputs) {
      TF_DataType dtype = TF_FLOAT;
      if (!dtype_of(arg, &dtype)) return false;
      outputs->push_back(dtype);
    }
  } else if (outputs_.size() != signature->outputs.size()) {
    ADD_FAILURE() << prefix << outputs_.size() << " output(s) declared, the op has "
                  << signature->outputs.size() << " (" << Names(signature->outputs) << ")";
    return false;
  }
  return true;
}

// TensorFlow adds an op's attr defaults to every NodeDef it builds; so does the context, for
// the catalogue's ops, unless the test set the attr.
void FakeKernelContext::AddAttrDefaults() {
  if (const CatalogueOp* op = FindCatalogueOp(op_)) {
    for (const auto& [name, value] : op->defaults) attrs_.emplace(name, value);
  }
}

KernelResult FakeKernelContext::Run() {
  KernelResult result;
  AddAttrDefaults();
  std::vector<TF_DataType> outputs;
  if (!Validate(&outputs)) return result;
  const std::optional<core::KernelRegistration> registration = FindRegistration();
  if (!registration) return result;
  result.ran = true;

  const core::LiveHandles before = core::Recorder::Instance().Live();
  const core::DeviceDescriptor device = device_.Descriptor();
  {
    core::KernelConstruction construction(core::NodeDef{.name = op_, .op = op_, .attrs = attrs_},
                                          device);
    core::KernelInstance instance(*registration, construction);
    result.construction = construction.status();
    if (result.construction.ok()) {
      core::KernelContext context(device);
      context.info().kernel_name = op_;
      context.SetApiHook([this](const core::KernelApiCall& call) { return api_.Dispatch(call); });
      const std::optional<OpSignature> signature = signature_ ? signature_ : FindOpSignature(op_);
      for (std::size_t i = 0; i < inputs_.size(); ++i) {
        const int index = static_cast<int>(i);
        if (signature) context.SetInputRange(signature->inputs[i].name, index, index + 1);
        if (inputs_[i].dtype() == TF_RESOURCE) {
          // A resource handle (core/variables.h) always lives in host memory, as in TensorFlow.
          context.AddInput(inputs_[i], core::InputOptions{.host_memory = true});
          continue;
        }
        core::Status copied;
        core::Tensor on_device = device_.ToDevice(inputs_[i], &copied);
        EXPECT_TRUE(copied.ok()) << core::ToString(copied);
        context.AddInput(std::move(on_device));
      }
      for (TF_DataType dtype : outputs) context.AddOutput(dtype);
      instance.Compute(context);
      result.compute = context.status();
      result.stream = device_.Synchronize();
      for (int i = 0; i < context.num_outputs(); ++i) {
        const std::optional<core::Tensor>& out = context.output(i);
        if (!out) {
          result.outputs.emplace_back();
          continue;
        }
        core::Status copied;
        result.outputs.emplace_back(device_.ToHost(*out, &copied));
        EXPECT_TRUE(copied.ok()) << core::ToString(copied);
      }
    }
  }
  const core::LiveHandles after = core::Recorder::Instance().Live();
  result.leaked_tensors = after.tensors - before.tensors;
  result.leaked_statuses = after.statuses - before.statuses;
  return result;
}

}  // namespace conformance::mocks
