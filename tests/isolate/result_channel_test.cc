#include "isolate/result_channel.h"

#include <unistd.h>

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace conformance::isolate {
namespace {

std::string Line(const CheckResult& result) { return nlohmann::json(result).dump() + "\n"; }

CheckResult Pass(std::string id) {
  CheckResult result;
  result.id = std::move(id);
  return result;
}

TEST(ResultStreamDecoder, ReassemblesLinesSplitAcrossReadsAtEveryByte) {
  const std::string stream = Line(Pass("a.b")) + Line(Pass("a.c")) + "{\"end_of_unit\":true}\n";
  for (std::size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    ResultStreamDecoder decoder;
    for (std::size_t at = 0; at < stream.size(); at += chunk) {
      decoder.Feed(std::string_view(stream).substr(at, chunk));
    }
    ASSERT_EQ(decoder.results().size(), 2U) << chunk;
    EXPECT_EQ(decoder.results()[1].id, "a.c");
    EXPECT_TRUE(decoder.end_of_unit());
    EXPECT_TRUE(decoder.errors().empty());
  }
}

TEST(ResultStreamDecoder, IncompleteTrailingLineIsNotAResult) {
  ResultStreamDecoder decoder;
  const std::string line = Line(Pass("a.b"));
  decoder.Feed(line.substr(0, line.size() - 5));
  EXPECT_TRUE(decoder.results().empty());
  EXPECT_FALSE(decoder.end_of_unit());
}

TEST(ResultStreamDecoder, GarbageIsReportedNotDropped) {
  ResultStreamDecoder decoder;
  decoder.Feed("hello from a plugin\n{\"id\":\"x\",\"outcome\":\"bogus\"}\n");
  EXPECT_TRUE(decoder.results().empty());
  ASSERT_EQ(decoder.errors().size(), 2U);
  EXPECT_NE(decoder.errors()[0].find("hello from a plugin"), std::string::npos);
  EXPECT_NE(decoder.errors()[1].find("bogus"), std::string::npos);
}

TEST(PipeResultSink, WritesOneLinePerResultAndTheEndMarker) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    PipeResultSink sink(fds[1]);
    sink.Emit(Pass("a.b"));
    sink.WriteEndOfUnit();
  }
  close(fds[1]);
  std::string stream;
  char buffer[256];
  for (ssize_t got; (got = read(fds[0], buffer, sizeof(buffer))) > 0;) stream.append(buffer, got);
  close(fds[0]);
  ResultStreamDecoder decoder;
  decoder.Feed(stream);
  ASSERT_EQ(decoder.results().size(), 1U);
  EXPECT_EQ(decoder.results()[0].id, "a.b");
  EXPECT_TRUE(decoder.end_of_unit());
}

}  // namespace
}  // namespace conformance::isolate
