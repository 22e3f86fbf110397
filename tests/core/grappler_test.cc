// grappler.h core functions on a GrapplerItem.
#include <string>

#include <gtest/gtest.h>

#include "core/grappler_item.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

namespace conformance::core {
namespace {

TEST(GrapplerTest, NodeListsArePackedIntoStorage) {
  GrapplerItem item;
  item.fetch = {"out", "loss"};
  item.feed = {"in"};
  item.keep_ops = {"out"};
  TF_Status* s = TF_NewStatus();
  int num = 0;
  size_t storage_size = 0;
  TF_GetNodesToPreserveListSize(item.c_handle(), &num, &storage_size, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(num, 3);  // out, loss, in
  EXPECT_EQ(storage_size, 9u);

  TF_GetFetchNodesListSize(item.c_handle(), &num, &storage_size, s);
  EXPECT_EQ(num, 2);
  EXPECT_EQ(storage_size, 7u);
  char* values[2];
  size_t lengths[2];
  char storage[7];
  TF_GetFetchNodesList(item.c_handle(), values, lengths, 2, storage, sizeof(storage), s);
  ASSERT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(std::string(values[1], lengths[1]), "loss");

  TF_GetFetchNodesList(item.c_handle(), values, lengths, 2, storage, 5, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Not enough storage to hold the requested list of nodes");
  TF_GetNodesToPreserveList(item.c_handle(), values, lengths, 2, storage, 5, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

// Inference itself: graph_properties_test.cc (protobuf-written graphs).
TEST(GrapplerTest, AnEmptyGraphInfersToNoProperties) {
  GrapplerItem item;
  TF_GraphProperties* props = TF_NewGraphProperties(item.c_handle());
  ASSERT_NE(props, nullptr);
  TF_Status* s = TF_NewStatus();
  TF_InferStatically(props, 1, 0, 0, 0, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK) << TF_Message(s);
  int num = -1;
  TF_GetInputPropertiesListSize(props, "n", &num, s);
  EXPECT_EQ(TF_GetCode(s), TF_OK);
  EXPECT_EQ(num, 0);
  TF_DeleteGraphProperties(props);
  TF_DeleteGraphProperties(nullptr);
  TF_DeleteFunctionLibraryDefinition(nullptr);
  TF_DeleteStatus(s);
}

TEST(GrapplerTest, InferenceOverBytesThatAreNotAGraphDefFails) {
  GrapplerItem item;
  item.serialized_graph_def = std::string("\xff\xff\xff", 3);
  TF_GraphProperties* props = TF_NewGraphProperties(item.c_handle());
  TF_Status* s = TF_NewStatus();
  TF_InferStatically(props, 1, 0, 0, 0, s);
  EXPECT_EQ(TF_GetCode(s), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s), "Unparseable GraphDef proto");
  TF_DeleteGraphProperties(props);
  TF_DeleteStatus(s);
}

}  // namespace
}  // namespace conformance::core
