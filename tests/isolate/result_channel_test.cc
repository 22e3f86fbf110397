#include "isolate/result_channel.h"

#include <unistd.h>

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "isolate/unit_token.h"

namespace conformance::isolate {
namespace {

constexpr const char* kToken = "0123456789abcdef0123456789abcdef";

std::string Line(const CheckResult& result, const std::string& token = kToken) {
  return nlohmann::json{{"token", token}, {"result", result}}.dump() + "\n";
}

std::string EndLine(const std::string& token = kToken) {
  return nlohmann::json{{"token", token}, {"end_of_unit", true}}.dump() + "\n";
}

CheckResult Pass(std::string id) {
  CheckResult result;
  result.id = std::move(id);
  return result;
}

TEST(ResultStreamDecoder, ReassemblesLinesSplitAcrossReadsAtEveryByte) {
  const std::string stream = Line(Pass("a.b")) + Line(Pass("a.c")) + EndLine();
  for (std::size_t chunk = 1; chunk <= stream.size(); ++chunk) {
    ResultStreamDecoder decoder(kToken);
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
  ResultStreamDecoder decoder(kToken);
  const std::string line = Line(Pass("a.b"));
  decoder.Feed(line.substr(0, line.size() - 5));
  EXPECT_TRUE(decoder.results().empty());
  EXPECT_FALSE(decoder.end_of_unit());
}

TEST(ResultStreamDecoder, GarbageIsReportedNotDropped) {
  ResultStreamDecoder decoder(kToken);
  decoder.Feed("hello from a plugin\n{\"token\":\"" + std::string(kToken) +
               "\",\"result\":{\"id\":\"x\",\"outcome\":\"bogus\"}}\n");
  EXPECT_TRUE(decoder.results().empty());
  ASSERT_EQ(decoder.errors().size(), 2U);
  EXPECT_NE(decoder.errors()[0].find("hello from a plugin"), std::string::npos);
  EXPECT_NE(decoder.errors()[1].find("bogus"), std::string::npos);
}

// What a forging plugin writes: well-formed records and an end marker, without the token
// (the old record format) or with a guessed one. None of it may count.
TEST(ResultStreamDecoder, RecordsWithoutTheUnitsTokenAreRejected) {
  ResultStreamDecoder decoder(kToken);
  decoder.Feed(nlohmann::json(Pass("a.b")).dump() + "\n{\"end_of_unit\":true}\n" +
               Line(Pass("a.c"), "00000000000000000000000000000000") +
               EndLine("0123456789abcdef0123456789abcdee"));
  EXPECT_TRUE(decoder.results().empty());
  EXPECT_FALSE(decoder.end_of_unit());
  ASSERT_EQ(decoder.errors().size(), 4U);
  for (const std::string& error : decoder.errors()) {
    EXPECT_NE(error.find("without this unit's token"), std::string::npos) << error;
  }
}

TEST(PipeResultSink, WritesOneLinePerResultAndTheEndMarkerWithTheToken) {
  const std::string token = NewUnitToken();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    PipeResultSink sink(fds[1], token);
    sink.Emit(Pass("a.b"));
    sink.WriteEndOfUnit();
  }
  close(fds[1]);
  std::string stream;
  char buffer[256];
  for (ssize_t got; (got = read(fds[0], buffer, sizeof(buffer))) > 0;) stream.append(buffer, got);
  close(fds[0]);

  ResultStreamDecoder decoder(token);
  decoder.Feed(stream);
  ASSERT_EQ(decoder.results().size(), 1U);
  EXPECT_EQ(decoder.results()[0].id, "a.b");
  EXPECT_TRUE(decoder.end_of_unit());

  ResultStreamDecoder other_unit(NewUnitToken());
  other_unit.Feed(stream);
  EXPECT_TRUE(other_unit.results().empty());
  EXPECT_FALSE(other_unit.end_of_unit());
}

TEST(UnitToken, IsFreshRandomHexEveryTime) {
  const std::string first = NewUnitToken();
  EXPECT_EQ(first.size(), 32U);
  EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(first, NewUnitToken());
}

}  // namespace
}  // namespace conformance::isolate
