// tf_status.h semantics: OK has no message or payloads, payloads are kept in order and
// replaced by key, errno maps to codes with "<context>; <strerror>".
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/status.h"
#include "tensorflow/c/tf_status.h"

namespace {

using Payloads = std::vector<std::pair<std::string, std::string>>;

Payloads Collect(const TF_Status* s) {
  Payloads out;
  TF_ForEachPayload(
      s,
      [](const char* key, const char* value, void* capture) {
        static_cast<Payloads*>(capture)->emplace_back(key, value);
      },
      &out);
  return out;
}

struct StatusDeleter {
  void operator()(TF_Status* s) const { TF_DeleteStatus(s); }
};
using OwnedStatus = std::unique_ptr<TF_Status, StatusDeleter>;

TEST(StatusTest, NewStatusIsOkWithEmptyMessage) {
  OwnedStatus s(TF_NewStatus());
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK);
  EXPECT_STREQ(TF_Message(s.get()), "");
}

TEST(StatusTest, SetStatusStoresCodeAndMessage) {
  OwnedStatus s(TF_NewStatus());
  TF_SetStatus(s.get(), TF_INVALID_ARGUMENT, "bad thing");
  EXPECT_EQ(TF_GetCode(s.get()), TF_INVALID_ARGUMENT);
  EXPECT_STREQ(TF_Message(s.get()), "bad thing");
}

TEST(StatusTest, OkStatusDropsMessage) {
  OwnedStatus s(TF_NewStatus());
  TF_SetStatus(s.get(), TF_OK, "ignored");
  EXPECT_STREQ(TF_Message(s.get()), "");
  TF_SetStatus(s.get(), TF_INTERNAL, "x");
  TF_SetStatus(s.get(), TF_OK, "y");
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK);
  EXPECT_STREQ(TF_Message(s.get()), "");
}

TEST(StatusTest, PayloadsIgnoredWhenOk) {
  OwnedStatus s(TF_NewStatus());
  TF_SetPayload(s.get(), "k", "v");
  EXPECT_TRUE(Collect(s.get()).empty());
}

TEST(StatusTest, PayloadsKeptInOrderAndReplacedByKey) {
  OwnedStatus s(TF_NewStatus());
  TF_SetStatus(s.get(), TF_ABORTED, "stop");
  TF_SetPayload(s.get(), "a", "1");
  TF_SetPayload(s.get(), "b", "2");
  TF_SetPayload(s.get(), "a", "3");
  EXPECT_EQ(Collect(s.get()), (Payloads{{"a", "3"}, {"b", "2"}}));
}

TEST(StatusTest, SetStatusDropsPayloads) {
  OwnedStatus s(TF_NewStatus());
  TF_SetStatus(s.get(), TF_ABORTED, "stop");
  TF_SetPayload(s.get(), "a", "1");
  TF_SetStatus(s.get(), TF_INTERNAL, "other");
  EXPECT_TRUE(Collect(s.get()).empty());
}

TEST(StatusTest, IOErrorMapsErrnoAndFormatsMessage) {
  OwnedStatus s(TF_NewStatus());
  const std::vector<std::pair<int, TF_Code>> cases = {
      {ENOENT, TF_NOT_FOUND},
      {EACCES, TF_PERMISSION_DENIED},
      {EINVAL, TF_INVALID_ARGUMENT},
      {EEXIST, TF_ALREADY_EXISTS},
      {ENOSPC, TF_RESOURCE_EXHAUSTED},
      {ENOMEM, TF_RESOURCE_EXHAUSTED},
      {EISDIR, TF_FAILED_PRECONDITION},
      {EFBIG, TF_OUT_OF_RANGE},
      {ENOSYS, TF_UNIMPLEMENTED},
      {EAGAIN, TF_UNAVAILABLE},
      {EINTR, TF_UNAVAILABLE},
      {ETIMEDOUT, TF_DEADLINE_EXCEEDED},
      {EDEADLK, TF_ABORTED},
      {ECANCELED, TF_CANCELLED},
      {EIO, TF_UNKNOWN},
      {12345, TF_UNKNOWN},
  };
  for (const auto& [error, code] : cases) {
    TF_SetStatusFromIOError(s.get(), error, "/tmp/file");
    EXPECT_EQ(TF_GetCode(s.get()), code) << "errno " << error;
    EXPECT_EQ(std::string(TF_Message(s.get())), std::string("/tmp/file; ") + std::strerror(error));
  }
  TF_SetStatusFromIOError(s.get(), 0, "fine");
  EXPECT_EQ(TF_GetCode(s.get()), TF_OK);
  EXPECT_STREQ(TF_Message(s.get()), "");
}

TEST(StatusTest, CppStatusUpdateKeepsFirstError) {
  conformance::core::Status s;
  s.Update(conformance::core::Status::Ok());
  EXPECT_TRUE(s.ok());
  s.Update(conformance::core::Status::Error(TF_INTERNAL, "first"));
  s.Update(conformance::core::Status::Error(TF_ABORTED, "second"));
  EXPECT_EQ(s.code, TF_INTERNAL);
  EXPECT_EQ(s.message, "first");
  EXPECT_EQ(conformance::core::ToString(s), "INTERNAL: first");
}

}  // namespace
