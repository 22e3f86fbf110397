// The two core libraries and two plugins linked against them the two ways real plugins
// are: sonames, DT_NEEDED entries, export sets, and loading with RTLD_NOW | RTLD_LOCAL
// into a process that links libtensorflow_framework.so.2 and has preloaded
// _pywrap_tensorflow_internal.so by absolute path.
#include <dlfcn.h>

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "core/kernel_context.h"
#include "core/kernel_instance.h"
#include "core/op_registry.h"
#include "core/recorder.h"
#include "core/shape_inference.h"
#include "elf_dynamic.h"

namespace conformance::core {
namespace {

using testing::DynamicInfo;
using testing::ReadDynamicInfo;

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::set<std::string> WithPrefix(const std::set<std::string>& symbols, const std::string& prefix) {
  std::set<std::string> out;
  for (const auto& s : symbols) {
    if (s.rfind(prefix, 0) == 0) out.insert(s);
  }
  return out;
}

class PluginLinkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Preload by absolute path: afterwards the loader resolves any DT_NEEDED on
    // "_pywrap_tensorflow_internal.so" to this object by its soname.
    pywrap_ = dlopen(CORE_PYWRAP_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(pywrap_, nullptr) << dlerror();
  }

  // Loads a plugin as TensorFlow does, runs TF_InitKernel attributed to `label`.
  static void* LoadAndInit(const char* path, const std::string& label) {
    void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
    if (handle == nullptr) return nullptr;
    auto init = reinterpret_cast<void (*)()>(dlsym(handle, "TF_InitKernel"));
    EXPECT_NE(init, nullptr);
    Recorder::Instance().SetCurrentPlugin(label);
    if (init != nullptr) init();
    Recorder::Instance().SetCurrentPlugin("");
    return handle;
  }

  static inline void* pywrap_ = nullptr;
};

TEST_F(PluginLinkTest, FrameworkLibraryHasItsSoname) {
  DynamicInfo info = ReadDynamicInfo(CORE_FRAMEWORK_PATH);
  EXPECT_EQ(info.soname, "libtensorflow_framework.so.2");
}

TEST_F(PluginLinkTest, PywrapLibraryHasItsSonameAndNeedsTheFramework) {
  DynamicInfo info = ReadDynamicInfo(CORE_PYWRAP_PATH);
  EXPECT_EQ(info.soname, "_pywrap_tensorflow_internal.so");
  EXPECT_TRUE(Contains(info.needed, "libtensorflow_framework.so.2"));
}

TEST_F(PluginLinkTest, PywrapCarriesNoRecorderState) {
  DynamicInfo info = ReadDynamicInfo(CORE_PYWRAP_PATH);
  // It exports nothing but the C API (TF_*, and the eager functions the core hosts), the one
  // TensorFlow C++ class C-API plugins import (docs/tensorflow/plugin_imports.md), and the
  // absolute symbol naming its version node `tensorflow` (pywrap_exports.map) ...
  for (const auto& s : info.defined) {
    EXPECT_TRUE(s.starts_with("TF_") || s.starts_with("TFE_") ||
                s.starts_with("_ZN10tensorflow8internal15LogMessageFatal") || s == "tensorflow")
        << s;
  }
  EXPECT_TRUE(info.defined.contains("tensorflow")) << "no version node `tensorflow`";
  // ... and takes the recorder from the framework library.
  EXPECT_TRUE(info.undefined.contains("_ZN11conformance4core8Recorder8InstanceEv"));
  DynamicInfo framework = ReadDynamicInfo(CORE_FRAMEWORK_PATH);
  EXPECT_TRUE(framework.defined.contains("_ZN11conformance4core8Recorder8InstanceEv"));
}

TEST_F(PluginLinkTest, BothLibrariesExportTheSameCApi) {
  auto framework = WithPrefix(ReadDynamicInfo(CORE_FRAMEWORK_PATH).defined, "TF_");
  auto pywrap = WithPrefix(ReadDynamicInfo(CORE_PYWRAP_PATH).defined, "TF_");
  EXPECT_EQ(framework, pywrap);
}

TEST_F(PluginLinkTest, EveryFunctionTheHeadersDeclareIsExported) {
  auto declared = testing::ExportedFunctionsDeclaredIn(CORE_HEADERS_DIR);
  EXPECT_GT(declared.size(), 100u);
  auto exported = WithPrefix(ReadDynamicInfo(CORE_FRAMEWORK_PATH).defined, "TF_");
  for (const auto& name : declared)
    EXPECT_TRUE(exported.contains(name)) << name << " is not exported";
  // And nothing beyond the headers: plugins must not come to depend on extras.
  for (const auto& name : exported)
    EXPECT_TRUE(declared.contains(name)) << name << " is not declared";
}

TEST_F(PluginLinkTest, PywrapOwnCopiesRecordIntoTheFrameworkRecorder) {
  // dlsym on the pywrap handle finds pywrap's own definitions first (its local scope),
  // not the framework's: the proof that its copies share the framework's state.
  using NewStatusFn = TF_Status* (*)();
  using DeleteStatusFn = void (*)(TF_Status*);
  using NewBuilderFn =
      TF_KernelBuilder* (*)(const char*, const char*, void* (*)(TF_OpKernelConstruction*),
                            void (*)(void*, TF_OpKernelContext*), void (*)(void*));
  using RegisterFn = void (*)(const char*, TF_KernelBuilder*, TF_Status*);
  auto new_status = reinterpret_cast<NewStatusFn>(dlsym(pywrap_, "TF_NewStatus"));
  auto delete_status = reinterpret_cast<DeleteStatusFn>(dlsym(pywrap_, "TF_DeleteStatus"));
  auto new_builder = reinterpret_cast<NewBuilderFn>(dlsym(pywrap_, "TF_NewKernelBuilder"));
  auto register_builder = reinterpret_cast<RegisterFn>(dlsym(pywrap_, "TF_RegisterKernelBuilder"));
  ASSERT_NE(new_status, nullptr);
  ASSERT_NE(new_builder, nullptr);
  EXPECT_NE(reinterpret_cast<void*>(new_status), reinterpret_cast<void*>(&TF_NewStatus));

  const int64_t statuses_before = Recorder::Instance().Live().statuses;
  TF_Status* status = new_status();
  EXPECT_EQ(Recorder::Instance().Live().statuses, statuses_before + 1);
  Recorder::Instance().SetCurrentPlugin("via-pywrap-copy");
  register_builder(
      "ViaPywrapKernel",
      new_builder(
          "ViaPywrap", "CORE_TEST", nullptr, [](void*, TF_OpKernelContext*) {}, nullptr),
      status);
  Recorder::Instance().SetCurrentPlugin("");
  EXPECT_EQ(TF_GetCode(status), TF_OK);  // framework's TF_GetCode reads pywrap's status
  delete_status(status);
  EXPECT_EQ(Recorder::Instance().Live().statuses, statuses_before);
  auto kernels = Recorder::Instance().Kernels();
  EXPECT_TRUE(std::any_of(kernels.begin(), kernels.end(), [](const KernelRegistration& k) {
    return k.op_name == "ViaPywrap" && k.plugin == "via-pywrap-copy";
  }));
}

TEST_F(PluginLinkTest, PluginsCarryTheDtNeededOfTheirLinkStyle) {
  DynamicInfo pywrap_plugin = ReadDynamicInfo(PLUGIN_PYWRAP_PATH);
  EXPECT_TRUE(Contains(pywrap_plugin.needed, "_pywrap_tensorflow_internal.so"));
  EXPECT_FALSE(Contains(pywrap_plugin.needed, "libtensorflow_framework.so.2"));
  DynamicInfo framework_plugin = ReadDynamicInfo(PLUGIN_FRAMEWORK_PATH);
  EXPECT_TRUE(Contains(framework_plugin.needed, "libtensorflow_framework.so.2"));
  EXPECT_FALSE(Contains(framework_plugin.needed, "_pywrap_tensorflow_internal.so"));
}

TEST_F(PluginLinkTest, BothPluginsLoadAndRecordIntoTheOneRecorder) {
  void* a = LoadAndInit(PLUGIN_PYWRAP_PATH, "pywrap-plugin");
  void* b = LoadAndInit(PLUGIN_FRAMEWORK_PATH, "framework-plugin");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);

  auto kernels = Recorder::Instance().Kernels();
  auto find = [&](const std::string& op) {
    return std::find_if(kernels.begin(), kernels.end(),
                        [&](const KernelRegistration& k) { return k.op_name == op; });
  };
  auto pywrap_kernel = find("CoreTestPywrap");
  auto framework_kernel = find("CoreTestFramework");
  ASSERT_NE(pywrap_kernel, kernels.end());
  ASSERT_NE(framework_kernel, kernels.end());
  EXPECT_EQ(pywrap_kernel->plugin, "pywrap-plugin");
  EXPECT_EQ(pywrap_kernel->kernel_name, "CoreTestPywrapKernel");
  EXPECT_EQ(pywrap_kernel->device_type, "CORE_TEST");
  EXPECT_EQ(pywrap_kernel->type_constraints,
            (std::vector<std::pair<std::string, int>>{{"T", TF_FLOAT}}));
  EXPECT_EQ(pywrap_kernel->host_memory_args, std::vector<std::string>{"x"});
  EXPECT_EQ(framework_kernel->plugin, "framework-plugin");

  auto ops = Recorder::Instance().Ops();
  EXPECT_EQ(
      std::count_if(ops.begin(), ops.end(),
                    [](const OpRegistration& op) { return op.name.rfind("CoreTest", 0) == 0; }),
      2);
}

TEST_F(PluginLinkTest, LoadedPluginKernelRunsThroughTheKernelContext) {
  void* handle = LoadAndInit(PLUGIN_PYWRAP_PATH, "pywrap-plugin");
  ASSERT_NE(handle, nullptr);
  auto kernels = Recorder::Instance().Kernels();
  auto it = std::find_if(kernels.begin(), kernels.end(),
                         [](const KernelRegistration& k) { return k.op_name == "CoreTestPywrap"; });
  ASSERT_NE(it, kernels.end());

  const LiveHandles before = Recorder::Instance().Live();
  KernelConstruction construction(NodeDef{.name = "double", .op = "CoreTestPywrap"});
  {
    KernelInstance kernel(*it, construction);
    ASSERT_TRUE(construction.status().ok());
    EXPECT_NE(kernel.kernel(), nullptr);
    KernelContext ctx;
    ctx.AddInput(Tensor::FromVector<float>(TF_FLOAT, {3}, {1, 2, 3}));
    ctx.AddOutput(TF_FLOAT);
    kernel.Compute(ctx);
    ASSERT_TRUE(ctx.status().ok()) << ToString(ctx.status());
    ASSERT_TRUE(ctx.output(0).has_value());
    EXPECT_EQ(ctx.output(0)->ToVector<float>(), (std::vector<float>{2, 4, 6}));
  }
  // The plugin released every tensor and status it was given.
  const LiveHandles after = Recorder::Instance().Live();
  EXPECT_EQ(after.tensors, before.tensors);
  EXPECT_EQ(after.statuses, before.statuses);

  // Its shape function is in the op registry and runs through InferenceContext.
  auto op = FindOpDefinition("CoreTestPywrap");
  ASSERT_TRUE(op.has_value());
  ASSERT_NE(op->shape_inference, nullptr);
  InferenceContext shapes("double", {PartialShape::Of({4, -1})}, 1);
  EXPECT_TRUE(shapes.Run(op->shape_inference).ok());
  EXPECT_EQ(shapes.output(0), PartialShape::Of({4, -1}));
}

}  // namespace
}  // namespace conformance::core
