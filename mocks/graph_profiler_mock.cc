#include "mocks/graph_profiler_mock.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "mocks/handle_registry.h"
#include "mocks/trampoline.h"

namespace conformance::mocks {
namespace {

std::atomic<void*> g_optimizer{nullptr};
std::atomic<void*> g_profiler{nullptr};

template <typename Mock>
Mock* LiveMock(const std::atomic<void*>& token, MockKind kind) {
  RegisteredMock entry;
  if (!HandleRegistry::Lookup(token.load(), kind, &entry)) return nullptr;
  return static_cast<Mock*>(entry.object);
}

template <typename T>
MockOptimizer* AnyOptimizer(T) {
  return MockOptimizer::Current();
}
template <typename T>
MockProfiler* AnyProfiler(T) {
  return MockProfiler::Current();
}

constexpr char kCreate[] = "create_func";
constexpr char kOptimize[] = "optimize_func";
constexpr char kDestroy[] = "destroy_func";
constexpr char kStart[] = "start";
constexpr char kStop[] = "stop";
constexpr char kCollect[] = "collect_data_xspace";
constexpr char kDestroyProfiler[] = "destroy_profiler";
constexpr char kDestroyProfilerFns[] = "destroy_profiler_fns";

void* CreateTrampoline() {
  MockOptimizer* mock = MockOptimizer::Current();
  if (mock == nullptr) {
    ReportStaleMock(kCreate, nullptr);
    return nullptr;
  }
  return mock->Create();
}

}  // namespace

MockOptimizer::MockOptimizer() : token_(HandleRegistry::Register(this, MockKind::kOptimizer)) {
  g_optimizer = token_;
  ON_CALL(*this, InitGraph)
      .WillByDefault([this](TP_OptimizerRegistrationParams* params, TF_Status* status) {
        if (faults_.Inject("TF_InitGraph", status)) return;
        const std::size_t prefilled[] = {params->struct_size,
                                         params->optimizer_configs->struct_size,
                                         params->optimizer->struct_size};
        params->device_type = device_type_.c_str();
        params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
        TP_Optimizer& optimizer = *params->optimizer;
        optimizer.struct_size = TP_OPTIMIZER_STRUCT_SIZE;
        faults_.ApplyStructSize("graph_params", prefilled[0], &params->struct_size);
        faults_.ApplyStructSize("optimizer_configs", prefilled[1],
                                &params->optimizer_configs->struct_size);
        faults_.ApplyStructSize("optimizer", prefilled[2], &optimizer.struct_size);
        optimizer.create_func = faults_.IsNull(kCreate) ? nullptr : &CreateTrampoline;
        optimizer.optimize_func =
            faults_.IsNull(kOptimize)
                ? nullptr
                : &Trampoline<&MockOptimizer::Optimize, &AnyOptimizer<void*>, kOptimize>::Call;
        optimizer.destroy_func =
            faults_.IsNull(kDestroy)
                ? nullptr
                : &Trampoline<&MockOptimizer::Destroy, &AnyOptimizer<void*>, kDestroy>::Call;
        ReportOk(faults_, status);
      });
  ON_CALL(*this, Create).WillByDefault([this]() -> void* { return token_; });
  ON_CALL(*this, Optimize)
      .WillByDefault([this](void*, const TF_Buffer* in, const TF_GrapplerItem*, TF_Buffer* out,
                            TF_Status* status) {
        if (faults_.Inject(kOptimize, status)) return;
        void* copy = std::malloc(in->length == 0 ? 1 : in->length);
        if (in->length > 0) std::memcpy(copy, in->data, in->length);
        out->data = copy;
        out->length = in->length;
        out->data_deallocator = [](void* data, size_t) { std::free(data); };
        ReportOk(faults_, status);
      });
}
MockOptimizer::~MockOptimizer() { HandleRegistry::Unregister(this); }
MockOptimizer* MockOptimizer::Current() {
  return LiveMock<MockOptimizer>(g_optimizer, MockKind::kOptimizer);
}

MockProfiler::MockProfiler() : token_(HandleRegistry::Register(this, MockKind::kProfiler)) {
  g_profiler = token_;
  ON_CALL(*this, InitProfiler)
      .WillByDefault([this](TF_ProfilerRegistrationParams* params, TF_Status* status) {
        if (faults_.Inject("TF_InitProfiler", status)) return;
        const std::size_t prefilled[] = {params->struct_size, params->profiler->struct_size,
                                         params->profiler_fns->struct_size};
        params->profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
        params->profiler->device_type = device_type_.c_str();
        TP_ProfilerFns& fns = *params->profiler_fns;
        fns.struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
        faults_.ApplyStructSize("profiler_params", prefilled[0], &params->struct_size);
        faults_.ApplyStructSize("profiler", prefilled[1], &params->profiler->struct_size);
        faults_.ApplyStructSize("profiler_fns", prefilled[2], &fns.struct_size);
        fns.start =
            faults_.IsNull(kStart)
                ? nullptr
                : &Trampoline<&MockProfiler::Start, &AnyProfiler<const TP_Profiler*>, kStart>::Call;
        fns.stop =
            faults_.IsNull(kStop)
                ? nullptr
                : &Trampoline<&MockProfiler::Stop, &AnyProfiler<const TP_Profiler*>, kStop>::Call;
        fns.collect_data_xspace =
            faults_.IsNull(kCollect)
                ? nullptr
                : &Trampoline<&MockProfiler::CollectDataXspace, &AnyProfiler<const TP_Profiler*>,
                              kCollect>::Call;
        params->destroy_profiler =
            faults_.IsNull(kDestroyProfiler)
                ? nullptr
                : &Trampoline<&MockProfiler::DestroyProfiler, &AnyProfiler<TP_Profiler*>,
                              kDestroyProfiler>::Call;
        params->destroy_profiler_fns =
            faults_.IsNull(kDestroyProfilerFns)
                ? nullptr
                : &Trampoline<&MockProfiler::DestroyProfilerFns, &AnyProfiler<TP_ProfilerFns*>,
                              kDestroyProfilerFns>::Call;
        ReportOk(faults_, status);
      });
  auto ok = [this](const char* name) {
    return [this, name](const TP_Profiler*, TF_Status* status) {
      if (!faults_.Inject(name, status)) ReportOk(faults_, status);
    };
  };
  ON_CALL(*this, Start).WillByDefault(ok(kStart));
  ON_CALL(*this, Stop).WillByDefault(ok(kStop));
  ON_CALL(*this, CollectDataXspace)
      .WillByDefault([this](const TP_Profiler*, uint8_t*, size_t* size, TF_Status* status) {
        if (faults_.Inject(kCollect, status)) return;
        *size = 0;  // an empty XSpace: nothing was traced
        ReportOk(faults_, status);
      });
}
MockProfiler::~MockProfiler() { HandleRegistry::Unregister(this); }
MockProfiler* MockProfiler::Current() {
  return LiveMock<MockProfiler>(g_profiler, MockKind::kProfiler);
}

}  // namespace conformance::mocks
