// The scenario engine without a plugin: parsing details, ordering analysis, data generators,
// the model, and the executor against an in-memory backend with injected defects.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fake_backend.h"
#include "scenario/buffer_model.h"
#include "scenario/executor.h"
#include "scenario/host_data.h"
#include "scenario/scenario_set.h"

namespace conformance::scenario {
namespace {

constexpr const char* kHeader = "fix: f\ntensorflow: t\nscenarios:\n  - name: x\n    rule: r\n";

std::string File(const std::string& steps, const std::string& extra = "") {
  return std::string(kHeader) + extra + "    steps:\n" + steps;
}

// Loads one scenario; fails the test (listing the messages) if the file has problems.
LoadedScenario LoadOne(const std::string& text) {
  ErrorList errors("t.yaml");
  auto loaded = LoadScenarioText(text, "t.yaml", errors);
  std::string messages;
  for (const auto& error : errors.errors()) messages += error.ToString() + "\n";
  EXPECT_TRUE(errors.empty()) << messages;
  EXPECT_EQ(loaded.size(), 1u);
  return loaded.empty() ? LoadedScenario{} : loaded.front();
}

std::vector<std::string> Problems(const std::string& text) {
  ErrorList errors("t.yaml");
  LoadScenarioText(text, "t.yaml", errors);
  std::vector<std::string> messages;
  for (const auto& error : errors.errors()) messages.push_back(error.ToString());
  return messages;
}

TEST(Parser, SizesAcceptSuffixesAndHex) {
  const auto loaded = LoadOne(
      File("      - allocate: {name: a, size: 4K}\n      - allocate: {name: b, size: 0x10}\n"
           "      - allocate: {name: c, size: 1M}\n"));
  ASSERT_EQ(loaded.program->buffers.size(), 3u);
  EXPECT_EQ(loaded.program->buffers[0].size, 4096u);
  EXPECT_EQ(loaded.program->buffers[1].size, 16u);
  EXPECT_EQ(loaded.program->buffers[2].size, 1u << 20);
}

TEST(Parser, IdIsStemAndName) {
  ErrorList errors("dir/my_file.yaml");
  auto loaded =
      LoadScenarioText(File("      - allocate: {name: a, size: 4}\n"), "dir/my_file.yaml", errors);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].id, "runtime.scenario.my_file.x");
  EXPECT_EQ(loaded[0].tier, "runtime");
}

TEST(Parser, StressTierFromTheFile) {
  ErrorList errors("s.yaml");
  auto loaded = LoadScenarioText("tier: stress\n" + File("      - allocate: {name: a, size: 4}\n"),
                                 "s.yaml", errors);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].tier, "stress");
}

TEST(Parser, EveryProblemOfAFileIsListed) {
  const auto problems =
      Problems(std::string(kHeader) +
               "    steps:\n      - allocate: {name: a, sise: 4}\n"
               "  - name: y\n    rule: r\n    steps:\n      - alocate: {name: a, size: 4}\n");
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("did you mean 'size'"), std::string::npos);
  EXPECT_NE(problems[1].find("did you mean 'allocate'"), std::string::npos);
}

TEST(Ordering, DependencyEventAndHostSyncEachOrderTwoStreams) {
  const std::string setup =
      "      - allocate: {name: a, size: 64}\n      - create_stream: {name: s1}\n      - "
      "create_stream: {name: s2}\n"
      "      - create_event: {name: e}\n      - memcpy_htod: {dst: a, size: 64, random: "
      "{seed_offset: 1}, stream: s1}\n";
  const std::string read = "      - memcpy_dtoh: {src: a, size: 64, stream: s2}\n";
  for (const std::string& order :
       {std::string("      - create_stream_dependency: {dependent: s2, other: s1}\n"),
        std::string("      - record_event: {event: e, stream: s1}\n      - wait_for_event: "
                    "{stream: s2, event: e}\n"),
        std::string("      - block_host_until_done: {stream: s1}\n"),
        std::string("      - synchronize_all_activity: {}\n")}) {
    EXPECT_TRUE(Problems(File(setup + order + read)).empty()) << order;
  }
  EXPECT_EQ(Problems(File(setup + read)).size(), 1u);
}

TEST(Ordering, DependencyCoversOnlyWorkQueuedBeforeIt) {
  const auto problems = Problems(
      File("      - allocate: {name: a, size: 64}\n      - create_stream: {name: s1}\n      - "
           "create_stream: {name: s2}\n"
           "      - create_stream_dependency: {dependent: s2, other: s1}\n"
           "      - memcpy_htod: {dst: a, size: 64, random: {seed_offset: 1}, stream: s1}\n"
           "      - memcpy_dtoh: {src: a, size: 64, stream: s2}\n"));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("unordered with step 5"), std::string::npos) << problems[0];
}

TEST(Ordering, ConcurrentThreadsMayReadTheSameBuffer) {
  EXPECT_TRUE(
      Problems(File("      - allocate: {name: a, size: 64}\n"
                    "      - memcpy_htod: {dst: a, size: 64, random: {seed_offset: 1}}\n"
                    "      - concurrent:\n"
                    "          - steps:\n              - memcpy_dtoh: {src: a, size: 64}\n"
                    "          - steps:\n              - memcpy_dtoh: {src: a, size: 64}\n"))
          .empty());
  // ... but not write what another thread reads.
  EXPECT_EQ(Problems(File("      - allocate: {name: a, size: 64}\n"
                          "      - memcpy_htod: {dst: a, size: 64, random: {seed_offset: 1}}\n"
                          "      - concurrent:\n"
                          "          - steps:\n              - memcpy_dtoh: {src: a, size: 64}\n"
                          "          - steps:\n              - memcpy_htod: {dst: a, size: 8, "
                          "data: [1,2,3,4,5,6,7,8]}\n"))
                .size(),
            1u);
}

TEST(HostData, PatternRepeatsWithIncrement) {
  HostData pattern{HostData::Kind::kPattern, {0x10, 0x20}, 1, 0};
  EXPECT_EQ(GenerateBytes(pattern, 5, 0, 0), (std::vector<uint8_t>{0x10, 0x20, 0x11, 0x21, 0x12}));
}

TEST(HostData, RandomDependsOnSeedOffsetAndRepetition) {
  HostData random{HostData::Kind::kRandom, {}, 0, 3};
  const auto base = GenerateBytes(random, 64, 42, 0);
  EXPECT_EQ(base, GenerateBytes(random, 64, 42, 0));
  EXPECT_NE(base, GenerateBytes(random, 64, 43, 0));
  EXPECT_NE(base, GenerateBytes(random, 64, 42, 1));
  random.seed_offset = 4;
  EXPECT_NE(base, GenerateBytes(random, 64, 42, 0));
}

TEST(BufferModel, UnknownBytesAreNotCompared) {
  BufferModel model(10000);
  const uint8_t bytes[] = {1, 2, 3};
  model.Write(4095, bytes, 3);  // across a page boundary
  const ExpectedBytes expected = model.Read(4094, 5);
  EXPECT_EQ(expected.known, (std::vector<uint8_t>{0, 1, 1, 1, 0}));
  const uint8_t actual[] = {9, 1, 2, 3, 9};
  EXPECT_FALSE(FirstDifference(expected, actual));
  const uint8_t wrong[] = {9, 1, 7, 3, 9};
  const auto difference = FirstDifference(expected, wrong);
  ASSERT_TRUE(difference);
  EXPECT_EQ(difference->offset, 2u);
  EXPECT_EQ(difference->expected, 2);
  EXPECT_EQ(difference->actual, 7);
}

const std::string kRoundTrip =
    "      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
    "      - memcpy_htod: {dst: a, size: 16, pattern: {bytes: [0x40], increment: 1}, stream: s}\n"
    "      - memcpy_dtoh: {src: a, size: 16, stream: s}\n      - block_host_until_done: {stream: "
    "s}\n";

TEST(Executor, PassesOnACorrectBackend) {
  FakeBackend backend;
  const auto loaded = LoadOne(File(kRoundTrip));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  EXPECT_EQ(outcome.kind, ScenarioOutcome::Kind::kPass) << outcome.message;
}

TEST(Executor, ReportsTheFirstDifferingByteOfAReadBack) {
  FakeBackend backend;
  backend.dtoh_drops_last_byte = true;
  const auto loaded = LoadOne(File(kRoundTrip));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  // Verified when block_host_until_done (step 5) returned; the message names the copy, led by
  // the callback that, checked on its own, writes wrong bytes.
  EXPECT_EQ(outcome.message,
            "wrong bytes written by memcpy_dtoh (only the first 4095 of 4096 bytes written; byte "
            "4095 of 4096: "
            "expected 0x09, got 0x5a), found by checking each copy and fill on its own after "
            "step 4 (t.yaml:10, memcpy_dtoh): read-back of 'a' bytes 0 to 16 differ from the "
            "model: first at "
            "byte 15 of the range (offset 15): expected 0x4f, got 0xb0; 1 of 16 bytes differ");
  EXPECT_EQ(outcome.details.at("offset"), "15");
  EXPECT_EQ(outcome.details.at("location"), "t.yaml:10:9");
  EXPECT_EQ(outcome.details.at("failing_call"), "memcpy_dtoh");
  EXPECT_EQ(outcome.details.at("problem"), "wrong bytes written");
}

// Issue 6 §7: a read-back that differs is localised before anyone is blamed.
TEST(ReadbackBlame, WrongBytesAreBlamedOnTheLegThatWritesThemNotOnTheReader) {
  FakeBackend backend;
  backend.htod_shifted = true;
  const auto loaded = LoadOne(File(kRoundTrip));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind("wrong bytes written by memcpy_htod (shifted by +1; ", 0), 0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find("step 4 (t.yaml:10, memcpy_dtoh): read-back of 'a'"),
            std::string::npos);
  EXPECT_EQ(outcome.message.find("late"), std::string::npos) << outcome.message;
  EXPECT_EQ(outcome.details.at("failing_call"), "memcpy_htod");
  EXPECT_EQ(outcome.details.at("problem"), "wrong bytes written");
  EXPECT_EQ(backend.settled, 1);  // once, before localising: not again per look
}

TEST(ReadbackBlame, BytesThatArriveAfterTheSynchronisingCallAreLate) {
  FakeBackend backend;
  backend.async_dtoh_late = true;
  const auto loaded = LoadOne(File(kRoundTrip));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind(
                "step 4 (t.yaml:10, memcpy_dtoh): read-back of 'a' bytes 0 to 16 differ", 0),
            0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find(
                "; the right bytes were there once everything was synchronised: "
                "block_host_until_done returned before the data arrived (late completion)"),
            std::string::npos)
      << outcome.message;
  EXPECT_EQ(outcome.details.at("failing_call"), "block_host_until_done");
  EXPECT_EQ(outcome.details.at("problem"), "late completion");
}

// A read on one stream of what another stream wrote is ordered by a host wait in between
// (synchronize_all_activity, or block_host_until_done on the writer's stream). When that wait
// returned before the write landed, the read got stale bytes that stay wrong, and the blame is
// the wait's, not the reader's (runtime_defects' synchronize_all_early, whose copies race: this
// fake makes the race lose every time).
TEST(ReadbackBlame, AStaleReadAfterAnEarlyHostWaitIsTheWaitsLateCompletion) {
  for (const auto& [wait, step] : std::vector<std::pair<std::string, std::string>>{
           {"synchronize_all_activity", "synchronize_all_activity: {}"},
           {"block_host_until_done", "block_host_until_done: {stream: t2}"}}) {
    FakeBackend backend;
    backend.htod_late_on_stream = 1;
    const auto loaded = LoadOne(
        File("      - allocate: {name: b, size: 32}\n"
             "      - create_stream: {name: t1}\n"
             "      - create_stream: {name: t2}\n"
             "      - memcpy_htod: {dst: b, size: 16, pattern: {bytes: [0x40]}, stream: t1}\n"
             "      - memcpy_htod: {dst: b, dst_offset: 16, size: 16, pattern: {bytes: [0x50]}, "
             "stream: t2}\n"
             "      - " +
             step +
             "\n"
             "      - memcpy_dtoh: {src: b, size: 32, stream: t1}\n"
             "      - block_host_until_done: {stream: t1}\n"));
    const auto outcome = RunProgram(*loaded.program, backend, 1);
    ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail) << wait;
    EXPECT_EQ(outcome.message.rfind(wait + " did not order the write before this read (the read "
                                           "got only the first 16 of 32 bytes written; byte 16 "
                                           "of 32: expected 0x50, got 0xcd; every copy is right",
                                    0),
              0u)
        << outcome.message;
    EXPECT_EQ(outcome.details.at("failing_call"), wait);
    EXPECT_EQ(outcome.details.at("problem"), "late completion");
  }
}

TEST(ReadbackBlame, AReaderWrongOnlyInContextIsFoundThroughTheTrustedPath) {
  FakeBackend backend;
  backend.dtoh_drops_last_byte_of_odd_sizes = true;  // whole 4096-byte legs are right
  const auto loaded = LoadOne(
      File("      - allocate: {name: a, size: 15}\n"
           "      - memcpy_htod: {dst: a, size: 15, pattern: {bytes: [0x40], increment: 1}}\n"
           "      - memcpy_dtoh: {src: a, size: 15}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind(
                "wrong bytes written by sync_memcpy_dtoh (only the first 14 of 15 bytes written; "
                "byte 14 of 15: expected 0x4e, got 0xb1): the device holds the right bytes",
                0),
            0u)
      << outcome.message;
  EXPECT_EQ(outcome.details.at("failing_call"), "sync_memcpy_dtoh");
  EXPECT_EQ(outcome.details.at("problem"), "wrong bytes written");
}

// A fill wrong only at an odd size passes the whole-buffer legs; done again with the step's own
// size and offset it shows, and is named (scenario_defects/mem_zero_short_odd).
TEST(ReadbackBlame, AFillWrongOnlyAtItsStepsSizeIsFoundByDoingItAgain) {
  FakeBackend backend;
  backend.mem_zero_short_of_odd_sizes = true;
  const auto loaded =
      LoadOne(File("      - allocate: {name: a, size: 64}\n"
                   "      - create_stream: {name: s}\n"
                   "      - memcpy_htod: {dst: a, size: 64, pattern: {bytes: [0xff]}, stream: s}\n"
                   "      - mem_zero: {buffer: a, offset: 7, size: 21, stream: s}\n"
                   "      - memcpy_dtoh: {src: a, size: 64, stream: s}\n"
                   "      - block_host_until_done: {stream: s}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind("wrong bytes written by mem_zero done again on its own", 0), 0u)
      << outcome.message;
  EXPECT_EQ(outcome.details.at("failing_call"), "mem_zero");
  EXPECT_EQ(outcome.details.at("problem"), "wrong bytes written");
}

// Issue 17: a buffer that holds another buffer's bytes because allocate handed out the same
// memory twice is allocate's defect (one root cause with runtime.devices.independent), found by
// writing the other buffer again and seeing it show up.
TEST(ReadbackBlame, MemoryHandedOutTwiceIsBlamedOnAllocate) {
  FakeBackend backend;
  backend.second_buffer_shares_first = true;
  const auto loaded = LoadOne(
      File("      - allocate: {name: a, size: 16}\n      - allocate: {name: b, size: 16}\n"
           "      - memcpy_htod: {dst: a, size: 16, pattern: {bytes: [0x40], increment: 1}}\n"
           "      - memcpy_htod: {dst: b, size: 16, pattern: {bytes: [0x10]}}\n"
           "      - memcpy_dtoh: {src: a, size: 16}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind("allocate gave 'a' (device 0) memory that 'b' (device 0) also "
                                  "uses",
                                  0),
            0u)
      << outcome.message;
  EXPECT_EQ(outcome.details.at("failing_call"), "allocate");
  EXPECT_EQ(outcome.details.at("problem"), "wrong allocation");
}

// Issue 17: an event still PENDING after a host wait, with every copy right, is put down to the
// wait when that wait, checked on its own, returns early; otherwise it stays get_event_status's.
const std::string kPendingAfterWait =
    "      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
    "      - create_event: {name: e}\n"
    "      - memcpy_htod: {dst: a, size: 16, pattern: {bytes: [7]}, stream: s}\n"
    "      - record_event: {event: e, stream: s}\n"
    "      - block_host_until_done: {stream: s}\n"
    "      - get_event_status: {event: e, expect: complete}\n";

TEST(EventStateBlame, PendingAfterAnEarlyWaitIsTheWaitsDefect) {
  FakeBackend backend;
  backend.override_event_state = true;
  backend.event_state_override = EventState::kPending;
  backend.early_wait = WrongLeg{"block_host_until_done", "late completion",
                                "block_host_until_done returned while a host callback queued "
                                "before it was still running"};
  const auto loaded = LoadOne(File(kPendingAfterWait));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(backend.waits_probed, std::set<std::string>{"block_host_until_done"});
  EXPECT_EQ(outcome.details.at("failing_call"), "block_host_until_done") << outcome.message;
  EXPECT_EQ(outcome.details.at("problem"), "late completion");
  EXPECT_NE(outcome.message.find("event 'e' is pending, expected complete"), std::string::npos)
      << outcome.message;
}

TEST(EventStateBlame, PendingAfterAWaitThatWaitsIsGetEventStatuss) {
  FakeBackend backend;
  backend.override_event_state = true;
  backend.event_state_override = EventState::kPending;
  const auto loaded = LoadOne(File(kPendingAfterWait));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.details.at("failing_call"), "get_event_status") << outcome.message;
  EXPECT_EQ(outcome.details.at("problem"), "wrong event state");
}

TEST(ReadbackBlame, NoCallbackIsNamedWhenNoneIsWrongOnItsOwn) {
  FakeBackend backend;
  backend.dtod_ignores_src_offset = true;  // wrong only with an offset: no leg shows it
  const auto loaded = LoadOne(
      File("      - allocate: {name: a, size: 16}\n      - allocate: {name: b, size: 8}\n"
           "      - memcpy_htod: {dst: a, size: 16, pattern: {bytes: [0x40], increment: 1}}\n"
           "      - memcpy_dtod: {dst: b, src: a, src_offset: 8, size: 8}\n"
           "      - memcpy_dtoh: {src: b, size: 8}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message.rfind("step 5 ", 0), 0u) << outcome.message;
  EXPECT_NE(outcome.message.find("no single callback is named"), std::string::npos)
      << outcome.message;
  EXPECT_FALSE(outcome.details.contains("failing_call"));
  EXPECT_FALSE(outcome.details.contains("problem"));
}

TEST(ReadbackBlame, PassingScenariosAreNotLocalised) {
  FakeBackend backend;
  const auto loaded = LoadOne(File(kRoundTrip));
  EXPECT_EQ(RunProgram(*loaded.program, backend, 1).kind, ScenarioOutcome::Kind::kPass);
  EXPECT_EQ(backend.settled, 0);
}

TEST(Executor, ChecksExpectedStatuses) {
  FakeBackend backend;
  backend.memset32_status = CallStatus{3, "size not a multiple of 4"};
  const auto ok =
      LoadOne(File("      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
                   "      - memset32: {buffer: a, size: 6, value: 1, stream: s, expect_status: "
                   "INVALID_ARGUMENT}\n"));
  EXPECT_EQ(RunProgram(*ok.program, backend, 1).kind, ScenarioOutcome::Kind::kPass);
  const auto wrong =
      LoadOne(File("      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
                   "      - memset32: {buffer: a, size: 8, value: 1, stream: s}\n"));
  const auto outcome = RunProgram(*wrong.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message,
            "step 3 (t.yaml:9, memset32): returned INVALID_ARGUMENT (\"size not a multiple of "
            "4\"), expected OK");
}

// An error where the step expects success blames the callback the backend named, so the
// step joins the root cause of the same defect found by the C++ checks.
TEST(Executor, UnexpectedErrorBlamesTheCallbackTheBackendNamed) {
  FakeBackend backend;
  backend.memset32_status = CallStatus{13, "boom"};
  backend.memset32_status->failing_call = "memset32";
  backend.memset32_status->problem = "returned an error status";
  const auto loaded =
      LoadOne(File("      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
                   "      - memset32: {buffer: a, size: 8, value: 1, stream: s}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.details.at("failing_call"), "memset32");
  EXPECT_EQ(outcome.details.at("problem"), "returned an error status");
  // A step that expects an error and gets another one is the scenario's finding, not a
  // callback failing where success was due: no blame.
  const auto expecting =
      LoadOne(File("      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
                   "      - memset32: {buffer: a, size: 8, value: 1, stream: s, expect_status: "
                   "INVALID_ARGUMENT}\n"));
  const auto mismatch = RunProgram(*expecting.program, backend, 1);
  ASSERT_EQ(mismatch.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_FALSE(mismatch.details.contains("failing_call"));
}

// hold_stream is stream work that touches no buffer: it reaches the backend on its stream,
// and a host_callback that fails is blamed on host_callback, as the C++ checks blame it.
TEST(Executor, HoldStreamHoldsItsStreamAndAFailedHoldIsHostCallbacks) {
  const auto loaded =
      LoadOne(File("      - allocate: {name: a, size: 16}\n      - create_stream: {name: s}\n"
                   "      - create_stream: {name: t}\n      - hold_stream: {stream: t}\n"
                   "      - memset: {buffer: a, size: 16, value: 7, stream: t}\n"
                   "      - memcpy_dtoh: {src: a, size: 16, stream: t}\n"
                   "      - block_host_until_done: {stream: t}\n"));
  FakeBackend backend;
  EXPECT_EQ(RunProgram(*loaded.program, backend, 1).kind, ScenarioOutcome::Kind::kPass);
  EXPECT_EQ(backend.held_streams, std::vector<int>{1});

  FakeBackend refusing;
  refusing.hold_status = CallStatus{13, "host_callback returned false"};
  refusing.hold_status->failing_call = "host_callback";
  refusing.hold_status->problem = "returned false";
  const auto outcome = RunProgram(*loaded.program, refusing, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.details.at("failing_call"), "host_callback");
  EXPECT_EQ(outcome.details.at("problem"), "returned false");
}

TEST(Executor, AllocationBeyondCapacityMustFail) {
  FakeBackend backend;
  const auto loaded = LoadOne(
      File("      - allocate: {name: a, size: capacity+1, expect_status: RESOURCE_EXHAUSTED}\n"));
  EXPECT_EQ(RunProgram(*loaded.program, backend, 1).kind, ScenarioOutcome::Kind::kPass);
  // A backend that never returns NULL.
  struct NeverFails : FakeBackend {
    bool Allocate(int, BufferKind, int, uint64_t) override { return true; }
  } always;
  const auto outcome = RunProgram(*loaded.program, always, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_NE(outcome.message.find("succeeded, expected NULL"), std::string::npos) << outcome.message;
}

TEST(Executor, UnmetRequirementsAreNotSupported) {
  FakeBackend backend;
  backend.unified = false;
  const auto loaded = LoadOne(File("      - allocate: {name: a, size: 16, device: 1}\n",
                                   "    requires: [devices>=2, unified_memory]\n"));
  auto outcome = RunProgram(*loaded.program, backend, 1);
  EXPECT_EQ(outcome.kind, ScenarioOutcome::Kind::kNotSupported);
  EXPECT_EQ(outcome.message, "needs 2 devices; the plugin has 1");
  backend.devices = 2;
  outcome = RunProgram(*loaded.program, backend, 1);
  EXPECT_EQ(outcome.kind, ScenarioOutcome::Kind::kNotSupported);
  EXPECT_NE(outcome.message.find("unified memory"), std::string::npos);
}

TEST(Executor, EventStatusIsChecked) {
  FakeBackend backend;
  backend.override_event_state = true;
  backend.event_state_override = EventState::kPending;
  const auto loaded =
      LoadOne(File("      - create_stream: {name: s}\n      - create_event: {name: e}\n"
                   "      - record_event: {event: e, stream: s}\n"
                   "      - block_host_for_event: {event: e}\n"
                   "      - get_event_status: {event: e, expect: complete}\n"));
  const auto outcome = RunProgram(*loaded.program, backend, 1);
  ASSERT_EQ(outcome.kind, ScenarioOutcome::Kind::kFail);
  EXPECT_EQ(outcome.message,
            "step 5 (t.yaml:11, get_event_status): event 'e' is pending, expected complete");
}

TEST(Executor, ConcurrentThreadsRun) {
  FakeBackend backend;
  const auto loaded =
      LoadOne(File("      - concurrent:\n"
                   "          - steps:\n              - allocate: {name: a, size: 64}\n"
                   "              - memcpy_htod: {dst: a, size: 64, random: {seed_offset: 1}}\n"
                   "              - memcpy_dtoh: {src: a, size: 64}\n"
                   "          - steps:\n              - allocate: {name: b, size: 64}\n"
                   "              - memcpy_htod: {dst: b, size: 64, random: {seed_offset: 2}}\n"
                   "              - memcpy_dtoh: {src: b, size: 64}\n"
                   "      - memcpy_dtoh: {src: a, size: 64}\n"));
  EXPECT_EQ(RunProgram(*loaded.program, backend, 1).kind, ScenarioOutcome::Kind::kPass);
}

TEST(ScenarioSet, BuiltinsAreValidAndIdsArePlain) {
  const auto builtins = BuiltinScenarios();
  EXPECT_GE(builtins.size(), 30u);
  for (const auto& loaded : builtins) {
    EXPECT_TRUE(loaded.id.starts_with("runtime.scenario.")) << loaded.id;
    EXPECT_FALSE(loaded.scenario->rule.empty()) << loaded.id;
  }
}

TEST(ScenarioSet, DirectoriesAddScenariosAndCollideOnIds) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("scenario_dirs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "vendor.yaml") << File("      - allocate: {name: a, size: 4}\n");
  std::ofstream(dir / "sub" / "memcpy.yaml") << File("      - allocate: {name: a, size: 4}\n");
  EXPECT_TRUE(CheckScenarioDirs({dir.string()}).empty());
  // memcpy.yaml's id is new (x is not a built-in name), so both add to the built-ins.
  const auto all = LoadAllScenarios({dir.string()});
  EXPECT_EQ(all.size(), BuiltinScenarios().size() + 2);
  // The same stem and name twice is an error naming both places.
  std::ofstream(dir / "sub" / "vendor.yaml") << File("      - allocate: {name: a, size: 4}\n");
  try {
    LoadAllScenarios({dir.string()});
    FAIL() << "expected a duplicate id";
  } catch (const ScenarioFilesError& error) {
    ASSERT_EQ(error.errors().size(), 1u);
    EXPECT_NE(
        error.errors()[0].message.find("check id runtime.scenario.vendor.x is already defined by"),
        std::string::npos)
        << error.what();
  }
  fs::remove_all(dir);
}

TEST(ScenarioSet, MissingDirectoryIsAnError) {
  const auto problems = CheckScenarioDirs({"/nonexistent/scenarios"});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].ToString(), "/nonexistent/scenarios: --scenarios: no such directory");
}

TEST(ScenarioSet, AFileIsNotADirectory) {
  const auto problems = CheckScenarioDirs({"/etc/hostname"});
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].ToString(),
            "/etc/hostname: --scenarios: not a directory (give the folder that holds the scenario "
            "files)");
}

class ScenarioDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("scenario_dir_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "sub");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ScenarioDir, YmlFilesArePickedUpLikeYaml) {
  std::ofstream(dir_ / "short.yml") << File("      - allocate: {name: a, size: 4}\n");
  std::ofstream(dir_ / "long.yaml") << File("      - allocate: {name: a, size: 4}\n");
  std::ofstream(dir_ / "notes.txt") << "not a scenario";
  const auto all = LoadAllScenarios({dir_.string()});
  ASSERT_EQ(all.size(), BuiltinScenarios().size() + 2);
  std::set<std::string> ids;
  for (const auto& loaded : all) ids.insert(loaded.id);
  EXPECT_TRUE(ids.contains("runtime.scenario.short.x"));
  EXPECT_TRUE(ids.contains("runtime.scenario.long.x"));
}

TEST_F(ScenarioDir, TheSameDirectoryTwiceIsNotADuplicateOfItself) {
  std::ofstream(dir_ / "sub" / "vendor.yaml") << File("      - allocate: {name: a, size: 4}\n");
  const std::string same = (dir_ / ".").string();
  // Twice verbatim, once through another spelling, once through its parent.
  const auto all = LoadAllScenarios({(dir_ / "sub").string(), (dir_ / "sub").string(), same});
  EXPECT_EQ(all.size(), BuiltinScenarios().size() + 1);
}

TEST_F(ScenarioDir, AnEmptyDirectoryIsAWarning) {
  std::ofstream(dir_ / "sub" / "readme.md") << "nothing here";
  std::vector<std::string> warnings;
  const auto all = LoadAllScenarios({(dir_ / "sub").string()}, &warnings);
  EXPECT_EQ(all.size(), BuiltinScenarios().size());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "--scenarios " + (dir_ / "sub").string() +
                             ": no *.yaml or *.yml files in it; it adds no scenarios");
}

}  // namespace
}  // namespace conformance::scenario
