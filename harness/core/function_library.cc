// grappler.h's function-library half: TF_NewFunctionLibraryDefinition reads the function
// library of a serialized GraphDef (wire level, no protobuf: see README "No protobuf in the
// core"), TF_LookUpOpDef hands out a function's signature (its OpDef) as TensorFlow does.
// Built-in ops have no OpDef in the mock core, so looking one up is NOT_FOUND (named).
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/buffer.h"
#include "core/emulated_release.h"
#include "core/proto_wire.h"
#include "core/live_handles.h"
#include "core/status.h"
#include "core/unimplemented.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

// Function name -> serialized OpDef (FunctionDef.signature).
struct TF_FunctionLibraryDefinition {
  std::map<std::string, std::string, std::less<>> signatures;
};

namespace core = conformance::core;

namespace {

// Field numbers: GraphDef.library 2; FunctionDefLibrary.function 1; FunctionDef.signature 1;
// OpDef.name 1.
constexpr uint32_t kGraphLibrary = 2;
constexpr uint32_t kLibraryFunction = 1;
constexpr uint32_t kFunctionSignature = 1;
constexpr uint32_t kOpDefName = 1;

using Field = core::ProtoReader::Field;

// The last occurrence of a singular message field wins, as protobuf merges them; keeping the
// last one is exact for the name fields read here.
bool LastBytes(std::string_view message, uint32_t number, std::string* out, bool* found) {
  core::ProtoReader reader(message);
  Field field;
  while (reader.Next(&field)) {
    if (field.number != number) continue;
    if (field.wire_type != core::ProtoReader::kLengthDelimited) return false;
    out->assign(field.bytes);
    *found = true;
  }
  return reader.ok();
}

bool ReadLibrary(std::string_view graph_def, TF_FunctionLibraryDefinition* lib) {
  core::ProtoReader graph(graph_def);
  Field field;
  while (graph.Next(&field)) {
    if (field.number != kGraphLibrary) continue;
    if (field.wire_type != core::ProtoReader::kLengthDelimited) return false;
    core::ProtoReader library(field.bytes);
    Field function;
    while (library.Next(&function)) {
      if (function.number != kLibraryFunction) continue;
      if (function.wire_type != core::ProtoReader::kLengthDelimited) return false;
      std::string signature, name;
      bool has_signature = false, has_name = false;
      if (!LastBytes(function.bytes, kFunctionSignature, &signature, &has_signature)) return false;
      if (!LastBytes(signature, kOpDefName, &name, &has_name)) return false;
      if (!core::IsValidUtf8(name)) return false;
      lib->signatures[name] = signature;
    }
    if (!library.ok()) return false;
  }
  return graph.ok();
}

}  // namespace

extern "C" {

TF_FunctionLibraryDefinition* TF_NewFunctionLibraryDefinition(const TF_Buffer* graph_buf,
                                                              TF_Status* status) {
  auto lib = std::make_unique<TF_FunctionLibraryDefinition>();
  const std::string_view bytes =
      graph_buf == nullptr || graph_buf->data == nullptr
          ? std::string_view()
          : std::string_view(static_cast<const char*>(graph_buf->data), graph_buf->length);
  if (graph_buf == nullptr || !ReadLibrary(bytes, lib.get())) {
    status->status = core::Status::Error(TF_INVALID_ARGUMENT, "Unparseable GraphDef proto");
    core::RecordCallError("TF_NewFunctionLibraryDefinition", "", status->status);
    return nullptr;
  }
  status->status = core::Status::Ok();
  return lib.release();
}

void TF_DeleteFunctionLibraryDefinition(TF_FunctionLibraryDefinition* fn_lib) { delete fn_lib; }

void TF_LookUpOpDef(TF_FunctionLibraryDefinition* fn_lib, const char* name, TF_Buffer* buf,
                    TF_Status* s) {
  const std::string_view op = name == nullptr ? std::string_view() : std::string_view(name);
  // As TensorFlow: the graph's functions first, then the op registry (the emulated release's).
  const auto found = fn_lib->signatures.find(op);
  if (found != fn_lib->signatures.end()) {
    s->status = core::WriteToBuffer(found->second, buf);
    return;
  }
  if (const std::optional<std::string> op_def = core::EmulatedOpDef(op)) {
    s->status = core::WriteToBuffer(*op_def, buf);
    return;
  }
  s->status = core::Status::Error(
      TF_NOT_FOUND, "Op type not registered '" + std::string(op) +
                        "' in binary running on plugin_conformance mock core (it knows the "
                        "functions of the graph's library and the op registry of TensorFlow " +
                        core::EmulatedVersion() + ", not the ops the plugin registers)");
  core::RecordCallError("TF_LookUpOpDef", std::string(op), s->status);
}

}  // extern "C"
