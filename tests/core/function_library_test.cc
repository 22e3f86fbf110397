// TF_NewFunctionLibraryDefinition / TF_LookUpOpDef over a GraphDef's function library, read
// at wire level by the core and checked here with hand-written wire bytes.
#include <string>

#include <gtest/gtest.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/tf_buffer.h"

namespace conformance::core {
namespace {

// A length-delimited field; every payload here is shorter than 128 bytes.
std::string Field(int number, const std::string& payload) {
  return std::string(1, static_cast<char>(number << 3 | 2)) + static_cast<char>(payload.size()) +
         payload;
}

// OpDef{name} inside FunctionDef{signature} inside FunctionDefLibrary inside GraphDef.library.
std::string GraphWithFunctions(std::initializer_list<std::string> names,
                               std::string* first_signature) {
  std::string library;
  for (const std::string& name : names) {
    // name, and an input_arg's worth of bytes that must be handed back unchanged
    const std::string signature = Field(1, name) + Field(2, Field(1, "x"));
    if (first_signature->empty()) *first_signature = signature;
    library += Field(1, Field(1, signature));
  }
  return Field(1, Field(1, "n")) + Field(2, library);
}

TEST(FunctionLibraryTest, LooksUpAFunctionsSignature) {
  std::string signature;
  const std::string graph = GraphWithFunctions({"my_fn", "other_fn"}, &signature);
  TF_Buffer* in = TF_NewBufferFromString(graph.data(), graph.size());
  TF_Status* s = TF_NewStatus();
  TF_FunctionLibraryDefinition* lib = TF_NewFunctionLibraryDefinition(in, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  ASSERT_NE(lib, nullptr);
  TF_Buffer* out = TF_NewBuffer();
  TF_LookUpOpDef(lib, "my_fn", out, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  EXPECT_EQ(std::string(static_cast<const char*>(out->data), out->length), signature);
  TF_DeleteBuffer(out);

  out = TF_NewBuffer();
  TF_LookUpOpDef(lib, "AddV2", out, s);
  EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
  EXPECT_NE(std::string(TF_Message(s)).find("Op type not registered 'AddV2'"), std::string::npos);
  EXPECT_EQ(out->data, nullptr);  // nothing made up
  TF_DeleteBuffer(out);
  TF_DeleteFunctionLibraryDefinition(lib);
  TF_DeleteBuffer(in);
  TF_DeleteStatus(s);
}

TEST(FunctionLibraryTest, RejectsBytesThatAreNotAGraphDef) {
  const std::string garbage("\xff\xff\xff\xff", 4);
  TF_Buffer* in = TF_NewBufferFromString(garbage.data(), garbage.size());
  TF_Status* s = TF_NewStatus();
  EXPECT_EQ(TF_NewFunctionLibraryDefinition(in, s), nullptr);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(in);
  TF_DeleteStatus(s);
}

TEST(FunctionLibraryTest, AGraphWithoutLibraryGivesAnEmptyLibrary) {
  TF_Buffer* in = TF_NewBufferFromString("", 0);
  TF_Status* s = TF_NewStatus();
  TF_FunctionLibraryDefinition* lib = TF_NewFunctionLibraryDefinition(in, s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  TF_Buffer* out = TF_NewBuffer();
  TF_LookUpOpDef(lib, "anything", out, s);
  EXPECT_EQ(TF_GetCode(s), TF_NOT_FOUND);
  TF_DeleteBuffer(out);
  TF_DeleteFunctionLibraryDefinition(lib);
  TF_DeleteBuffer(in);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
