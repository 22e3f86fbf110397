// Units that crash, abort, exit or hang in the "plugin" (libisolate_test_crashy.so): the parent
// must turn each into precise results and carry on.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "crashy.h"
#include "isolate/in_flight.h"
#include "isolate/unit_runner.h"
#include "unit_helpers.h"

namespace conformance {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Ids;
using testing::MakeUnit;
using testing::Outcomes;
using testing::Result;
using testing::RunOne;
using ::testing::StartsWith;

// True once `pid` no longer exists (killed and reaped), waiting up to a second for it.
bool ProcessIsGone(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The line crashy.c marks, so the test does not break when that file is edited.
int SegfaultLine() {
  std::ifstream source(CRASHY_SOURCE);
  std::string line;
  for (int number = 1; std::getline(source, line); ++number) {
    if (line.find("CRASHY_SEGFAULT_LINE") != std::string::npos &&
        line.find("*target") != std::string::npos) {
      return number;
    }
  }
  return -1;
}

TEST(CrashCapture, SegfaultBecomesCrashForCheckInFlightWithSymbolizedBacktrace) {
  const auto unit = MakeUnit("load.se", {"load.se.init", "load.se.platform"}, [](UnitContext&) {
    in_flight::BeginCheck("load.se.init");
    in_flight::PluginCall call("SE_InitPlugin");
    crashy_segfault();
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"load.se.init", "load.se.platform"}));
  EXPECT_THAT(Outcomes(results), ElementsAre(Outcome::kCrash, Outcome::kSkipped));

  const CheckResult& crash = results[0];
  EXPECT_EQ(crash.message, "SIGSEGV (Segmentation fault) in SE_InitPlugin");
  ASSERT_TRUE(crash.crash.has_value());
  EXPECT_EQ(crash.crash->signal, "SIGSEGV");
  EXPECT_EQ(crash.crash->last_call, "SE_InitPlugin");
  ASSERT_FALSE(crash.crash->backtrace.empty());
  // Innermost first, the handler's own frames dropped: frame 0 is the faulting static function.
  EXPECT_THAT(crash.crash->backtrace[0],
              AllOf(StartsWith("#0 libisolate_test_crashy.so: write_through_null+0x"),
                    HasSubstr("(crashy.c:" + std::to_string(SegfaultLine()) + ")")));
  ASSERT_GE(crash.crash->backtrace.size(), 2U);
  EXPECT_THAT(crash.crash->backtrace[1], HasSubstr("crashy_segfault"));
  EXPECT_EQ(crash.details.at("fault_address"), "0x0");
  EXPECT_TRUE(crash.details.contains("unit_seconds"));

  EXPECT_EQ(results[1].message, "not run: load.se.init crashed (SIGSEGV)");
}

TEST(CrashCapture, AbortIsReportedAsSigabrtWithCallerInBacktrace) {
  const auto unit = MakeUnit("kernels.init", {"kernels.init.register"}, [](UnitContext&) {
    in_flight::BeginCheck("kernels.init.register");
    in_flight::PluginCall call("TF_InitKernel");
    crashy_abort();
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].id, "kernels.init.register");
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message, "SIGABRT (Aborted) in TF_InitKernel");
  ASSERT_TRUE(results[0].crash.has_value());
  EXPECT_EQ(results[0].crash->signal, "SIGABRT");
  EXPECT_THAT(results[0].crash->backtrace, Contains(HasSubstr("crashy_abort")));
  EXPECT_FALSE(results[0].details.contains("fault_address"));
}

TEST(CrashCapture, RaisedSigfpeIsReported) {
  const auto unit = MakeUnit("runtime.fpe", {"runtime.fpe.raise"}, [](UnitContext&) {
    in_flight::BeginCheck("runtime.fpe.raise");
    in_flight::PluginCall call("SP_DeviceFns.get_numa_node");
    crashy_raise_fpe();
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message, "SIGFPE (Floating point exception) in SP_DeviceFns.get_numa_node");
  EXPECT_EQ(results[0].crash->signal, "SIGFPE");
  EXPECT_THAT(results[0].crash->backtrace, Contains(HasSubstr("crashy_raise_fpe")));
}

TEST(CrashCapture, StackOverflowIsCaughtOnTheAlternateStack) {
  const auto unit = MakeUnit("stress.stack", {"stress.stack.recurse"}, [](UnitContext&) {
    in_flight::BeginCheck("stress.stack.recurse");
    in_flight::PluginCall call("SP_StreamExecutor.allocate");
    crashy_overflow_stack(0);
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].crash->signal, "SIGSEGV");
  EXPECT_EQ(results[0].crash->last_call, "SP_StreamExecutor.allocate");
  ASSERT_FALSE(results[0].crash->backtrace.empty());
  EXPECT_THAT(results[0].crash->backtrace[0], HasSubstr("recurse_without_end"));
  // The recursion shows up once, then as a count rather than sixty identical lines.
  ASSERT_EQ(results[0].crash->backtrace.size(), 3U);
  EXPECT_THAT(results[0].crash->backtrace[1], HasSubstr("recurse_without_end"));
  EXPECT_THAT(results[0].crash->backtrace[2], StartsWith("#2-#63 same as #1 (62 frames)"));
}

TEST(CrashCapture, ExitInsidePluginIsCrashWithExitStatus) {
  const auto unit =
      MakeUnit("kernels.init", {"kernels.init.register", "kernels.init.ops"}, [](UnitContext&) {
        in_flight::BeginCheck("kernels.init.register");
        in_flight::PluginCall call("TF_InitKernel");
        crashy_exit(3);
      });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"kernels.init.register", "kernels.init.ops"}));
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message, "the plugin called exit(3) during TF_InitKernel");
  EXPECT_EQ(results[0].details.at("failing_call"), "TF_InitKernel");
  EXPECT_EQ(results[0].details.at("problem"), "called exit()");
  EXPECT_EQ(results[0].crash->signal, "exit(3)");
  EXPECT_EQ(results[0].crash->last_call, "TF_InitKernel");
  EXPECT_TRUE(results[0].crash->backtrace.empty());
  EXPECT_EQ(results[1].outcome, Outcome::kSkipped);
  EXPECT_EQ(results[1].message, "not run: kernels.init.register crashed (exit(3))");
}

TEST(CrashCapture, QuickExitWithStatusZeroIsStillACrash) {
  const auto unit = MakeUnit("load.graph", {"load.graph.init"}, [](UnitContext&) {
    in_flight::BeginCheck("load.graph.init");
    _exit(0);
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message,
            "the unit's process called _exit(0) before the unit finished (outside any plugin "
            "call)");
  EXPECT_EQ(results[0].crash->signal, "exit(0)");
  EXPECT_EQ(results[0].crash->last_call, "");
}

TEST(CrashCapture, KillWithoutCrashReportNamesTheSignal) {
  const auto unit = MakeUnit("runtime.oom", {"runtime.oom.alloc"}, [](UnitContext&) {
    in_flight::BeginCheck("runtime.oom.alloc");
    in_flight::PluginCall call("SP_StreamExecutor.allocate");
    kill(getpid(), SIGKILL);  // what the OOM killer does
    pause();
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message, "SIGKILL (Killed) in SP_StreamExecutor.allocate");
  EXPECT_EQ(results[0].crash->signal, "SIGKILL");
  EXPECT_TRUE(results[0].crash->backtrace.empty());
}

TEST(CrashCapture, EmittedResultsAreKeptThenCrashThenSkipped) {
  const auto unit =
      MakeUnit("runtime.memcpy",
               {"runtime.memcpy.a", "runtime.memcpy.b", "runtime.memcpy.c", "runtime.memcpy.d"},
               [](UnitContext& context) {
                 context.sink.Emit(Result("runtime.memcpy.a", Outcome::kPass));
                 context.sink.Emit(Result("runtime.memcpy.b", Outcome::kFail, "bytes differ"));
                 in_flight::BeginCheck("runtime.memcpy.c");
                 in_flight::PluginCall call("SP_StreamExecutor.memcpy_htod");
                 crashy_segfault();
               });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"runtime.memcpy.a", "runtime.memcpy.b",
                                                    "runtime.memcpy.c", "runtime.memcpy.d"}));
  EXPECT_THAT(Outcomes(results),
              ElementsAre(Outcome::kPass, Outcome::kFail, Outcome::kCrash, Outcome::kSkipped));
  EXPECT_EQ(results[1].message, "bytes differ");
  EXPECT_EQ(results[2].message, "SIGSEGV (Segmentation fault) in SP_StreamExecutor.memcpy_htod");
  EXPECT_EQ(results[3].message, "not run: runtime.memcpy.c crashed (SIGSEGV)");
}

TEST(CrashCapture, CrashWithoutCheckInFlightIsAttributedToTheUnit) {
  const auto unit = MakeUnit("load.se", {"load.se.init", "load.se.platform"},
                             [](UnitContext&) { crashy_segfault(); });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results),
            (std::vector<std::string>{"load.se", "load.se.init", "load.se.platform"}));
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_EQ(results[0].message, "SIGSEGV (Segmentation fault)");
  EXPECT_EQ(results[1].message, "not run: load.se crashed (SIGSEGV)");
  EXPECT_EQ(results[2].outcome, Outcome::kSkipped);
}

TEST(CrashCapture, CrashAfterTheInFlightCheckReportedIsAttributedToTheUnit) {
  const auto unit =
      MakeUnit("load.se", {"load.se.init", "load.se.platform"}, [](UnitContext& context) {
        in_flight::BeginCheck("load.se.init");
        context.sink.Emit(Result("load.se.init", Outcome::kPass));
        in_flight::PluginCall call("SP_PlatformFns.destroy_device");
        crashy_segfault();
      });
  const auto results = RunOne(unit);
  ASSERT_EQ(Ids(results),
            (std::vector<std::string>{"load.se.init", "load.se", "load.se.platform"}));
  EXPECT_EQ(results[0].outcome, Outcome::kPass);
  EXPECT_EQ(results[1].outcome, Outcome::kCrash);
  EXPECT_EQ(results[1].crash->last_call, "SP_PlatformFns.destroy_device");
}

TEST(CrashCapture, HangIsTimeoutAndTheWholeProcessGroupIsKilledPromptly) {
  // Orphans of the child's process group come back to us, so we can see whether they died.
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const auto unit =
      MakeUnit("runtime.sync", {"runtime.sync.helper", "runtime.sync.wait", "runtime.sync.after"},
               [](UnitContext& context) {
                 const pid_t helper = fork();  // stands for a daemon the plugin spawns
                 if (helper == 0) {
                   for (;;) pause();
                 }
                 CheckResult spawned = Result("runtime.sync.helper", Outcome::kPass);
                 spawned.details["pid"] = std::to_string(helper);
                 context.sink.Emit(spawned);
                 in_flight::BeginCheck("runtime.sync.wait");
                 in_flight::PluginCall call("SP_StreamExecutor.block_host_for_event");
                 crashy_hang();
               });
  IsolationOptions options;
  options.timeout = std::chrono::milliseconds(300);
  const auto started = std::chrono::steady_clock::now();
  const auto results = RunOne(unit, options);
  const auto elapsed = std::chrono::steady_clock::now() - started;

  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_LT(elapsed, std::chrono::milliseconds(1000));
  ASSERT_EQ(Ids(results), (std::vector<std::string>{"runtime.sync.helper", "runtime.sync.wait",
                                                    "runtime.sync.after"}));
  EXPECT_EQ(results[1].outcome, Outcome::kTimeout);
  EXPECT_EQ(results[1].message, "timed out after 300 ms in SP_StreamExecutor.block_host_for_event");
  ASSERT_TRUE(results[1].crash.has_value());
  EXPECT_EQ(results[1].crash->signal, "timeout");
  EXPECT_EQ(results[1].crash->last_call, "SP_StreamExecutor.block_host_for_event");
  EXPECT_TRUE(results[1].details.contains("unit_seconds"));
  EXPECT_EQ(results[2].outcome, Outcome::kSkipped);
  EXPECT_EQ(results[2].message, "not run: runtime.sync.wait timed out");

  const pid_t helper = std::stoi(results[0].details.at("pid"));
  EXPECT_TRUE(ProcessIsGone(helper)) << "the helper process outlived the timed-out unit";
}

TEST(CrashCapture, SpawnedProcessHoldingThePipeDoesNotDelayTheUnit) {
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const auto unit = MakeUnit("load.se", {"load.se.init"}, [](UnitContext& context) {
    const pid_t helper = fork();  // inherits the result pipe and never closes it
    if (helper == 0) {
      for (;;) pause();
    }
    CheckResult result = Result("load.se.init", Outcome::kPass);
    result.details["pid"] = std::to_string(helper);
    context.sink.Emit(result);
  });
  const auto started = std::chrono::steady_clock::now();
  const auto results = RunOne(unit);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(1000));
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].outcome, Outcome::kPass);

  const pid_t helper = std::stoi(results[0].details.at("pid"));
  EXPECT_TRUE(ProcessIsGone(helper)) << "a process the unit left behind survived it";
}

TEST(CrashCapture, ExceptionEscapingTheUnitIsACrashNamingTypeMessageAndCall) {
  for (const bool isolate : {true, false}) {
    SCOPED_TRACE(isolate ? "isolated" : "in process");
    const auto unit = MakeUnit("load.se", {"load.se.init", "load.se.platform"}, [](UnitContext&) {
      in_flight::BeginCheck("load.se.init");
      in_flight::PluginCall outer("SE_InitPlugin");
      in_flight::PluginCall inner("SP_PlatformFns.create_device");
      throw std::runtime_error("plugin threw through the C ABI");
    });
    IsolationOptions options;
    options.isolate = isolate;
    const auto results = RunOne(unit, options);
    ASSERT_EQ(Ids(results), (std::vector<std::string>{"load.se.init", "load.se.platform"}));
    EXPECT_EQ(results[0].outcome, Outcome::kCrash);
    EXPECT_EQ(results[0].message,
              "uncaught exception std::runtime_error (\"plugin threw through the C ABI\") in "
              "SP_PlatformFns.create_device");
    EXPECT_EQ(results[0].crash->signal, "exception");
    EXPECT_EQ(results[1].message, "not run: load.se.init crashed (exception)");
  }
  EXPECT_EQ(in_flight::CurrentCall(), "");
}

// Issue 17: the destructors an escaping exception runs free tensors and kernels through the
// plugin (deallocate, delete_func); those calls must not make the call it escaped from
// anonymous (Vulten's BiasAddGrad threw std::length_error out of compute_func).
TEST(CrashCapture, ExceptionNamesItsCallWhenTheUnwindingCallsThePluginAgain) {
  struct KernelCleanup {
    ~KernelCleanup() { const in_flight::PluginCall release("delete_func"); }
  };
  for (const bool isolate : {true, false}) {
    SCOPED_TRACE(isolate ? "isolated" : "in process");
    const auto unit =
        MakeUnit("kernel.BiasAddGrad", {"kernel.BiasAddGrad.float.input_rank"}, [](UnitContext&) {
          in_flight::BeginCheck("kernel.BiasAddGrad.float.input_rank");
          const KernelCleanup cleanup;
          const in_flight::PluginCall call("compute_func");
          throw std::length_error("cannot create std::vector");
        });
    IsolationOptions options;
    options.isolate = isolate;
    const auto results = RunOne(unit, options);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].outcome, Outcome::kCrash);
    EXPECT_EQ(results[0].message,
              "uncaught exception std::length_error (\"cannot create std::vector\") in "
              "compute_func");
    EXPECT_EQ(results[0].details.at("failing_call"), "compute_func");
  }
}

// Issue 17: a bad address in any call given opaque + offset is one defect of allocate's (its
// opaque is no device address), whichever callback met it; an exit there is the call's own.
TEST(CrashCapture, BadAddressAtAnInteriorPointerIsAllocatesDefect) {
  for (const std::string call : {"SP_StreamExecutor.memcpy_htod", "SP_StreamExecutor.memset"}) {
    SCOPED_TRACE(call);
    const auto unit = MakeUnit("runtime.copies", {"runtime.copies.sliced"}, [call](UnitContext&) {
      in_flight::BeginCheck("runtime.copies.sliced");
      const in_flight::PluginCall in_plugin(call);
      const in_flight::InteriorPointer interior;
      crashy_segfault();
    });
    const auto results = RunOne(unit);
    ASSERT_EQ(results.size(), 1U);
    EXPECT_EQ(results[0].outcome, Outcome::kCrash);
    EXPECT_EQ(results[0].details.at("failing_call"), "allocate");
    EXPECT_EQ(results[0].details.at("problem"), "opaque is not a device address");
    EXPECT_THAT(results[0].message,
                HasSubstr("TensorFlow passes interior pointers (opaque + offset) for sliced"));
    EXPECT_EQ(results[0].crash->last_call, call);
  }
  const auto exits = MakeUnit("runtime.copies", {"runtime.copies.sliced"}, [](UnitContext&) {
    in_flight::BeginCheck("runtime.copies.sliced");
    const in_flight::PluginCall in_plugin("SP_StreamExecutor.sync_memcpy_htod");
    const in_flight::InteriorPointer interior;
    crashy_exit(1);
  });
  const auto results = RunOne(exits);
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].details.at("failing_call"), "sync_memcpy_htod");
  EXPECT_EQ(results[0].details.at("problem"), "called exit()");
}

// Set in this process before the unit runs; a child that ran our atexit handlers would
// write to the pipe.
int g_teardown_pipe = -1;
void ReportTeardown() {
  if (g_teardown_pipe >= 0) (void)!write(g_teardown_pipe, "x", 1);
}

TEST(CrashCapture, ExitInTheChildSkipsTheHarnessTeardown) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  g_teardown_pipe = fds[1];
  std::atexit(ReportTeardown);
  const auto unit = MakeUnit("load.se", {"load.se.init"}, [](UnitContext&) { crashy_exit(7); });
  const auto results = RunOne(unit);
  g_teardown_pipe = -1;
  close(fds[1]);
  char byte = 0;
  EXPECT_EQ(read(fds[0], &byte, 1), 0) << "the child ran the harness's atexit handlers";
  close(fds[0]);
  ASSERT_FALSE(results.empty());
  EXPECT_EQ(results[0].crash->signal, "exit(7)");
}

TEST(CrashCapture, HostIgnoringSigchldDoesNotBreakTheRunner) {
  // With SIGCHLD ignored the kernel reaps children itself and no exit status is kept.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGCHLD, &ignore, &previous), 0);
  const auto passing = MakeUnit(
      "a", {"a.x"}, [](UnitContext& context) { context.sink.Emit(Result("a.x", Outcome::kPass)); });
  const auto exiting = MakeUnit("b", {"b.x"}, [](UnitContext&) { _exit(3); });
  const auto passed = RunOne(passing);
  const auto exited = RunOne(exiting);
  sigaction(SIGCHLD, &previous, nullptr);

  EXPECT_THAT(Outcomes(passed), ElementsAre(Outcome::kPass));
  ASSERT_EQ(exited.size(), 2U);
  EXPECT_EQ(exited[0].outcome, Outcome::kCrash);
  EXPECT_EQ(exited[0].message, "the process ended (exit status unavailable)");
}

TEST(CrashCapture, WhatThePluginPrintedIsCapturedWithTheUnitsResults) {
  ::testing::internal::CaptureStdout();
  const auto unit = MakeUnit("load.se", {"load.se.init"}, [](UnitContext&) {
    std::fprintf(stderr, "plugin warns\n");
    std::printf("plugin says hello");  // no newline: stays in stdio's buffer
  });
  const auto results = RunOne(unit);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "") << "interleaved into the console";
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].plugin_output, "plugin warns\nplugin says hello");
}

TEST(CrashCapture, CapturedOutputIsBoundedWithATruncationNote) {
  const auto unit = MakeUnit("load.se", {"load.se.init", "load.se.more"}, [](UnitContext&) {
    const std::string line(1000, 'x');
    for (int i = 0; i < 1000; ++i) std::printf("%s\n", line.c_str());  // ~1 MB
    in_flight::BeginCheck("load.se.init");
    in_flight::PluginCall call("SE_InitPlugin");
    crashy_segfault();
  });
  const auto results = RunOne(unit);
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].outcome, Outcome::kCrash);
  EXPECT_LT(results[0].plugin_output.size(), 65 * 1024U);
  EXPECT_THAT(results[0].plugin_output,
              AllOf(StartsWith("xxxx"), HasSubstr("more bytes not kept (limit 65536 bytes)]")));
  EXPECT_EQ(results[1].plugin_output, "") << "attached to the unit's first result only";
}

// A daemon the plugin starts: fork, setsid() to leave the unit's process group, fork again,
// and the middle process exits so the daemon is orphaned. It must not outlive the unit.
TEST(CrashCapture, GrandchildrenThatCallSetsidAreKilledAtUnitEnd) {
  const auto unit = MakeUnit("runtime.daemon", {"runtime.daemon.start"}, [](UnitContext& context) {
    int report[2];
    if (pipe(report) != 0) return;
    const pid_t middle = fork();
    if (middle == 0) {
      setsid();
      const pid_t daemon = fork();
      if (daemon == 0) {
        for (;;) pause();
      }
      (void)!write(report[1], &daemon, sizeof(daemon));
      _exit(0);
    }
    pid_t daemon = -1;
    (void)!read(report[0], &daemon, sizeof(daemon));
    waitpid(middle, nullptr, 0);
    CheckResult result = Result("runtime.daemon.start", Outcome::kPass);
    result.details["pid"] = std::to_string(daemon);
    context.sink.Emit(result);
  });
  for (const int jobs : {1, 2}) {
    std::vector<CheckResult> results;
    RunUnits({unit, unit}, RunSettings{}, IsolationOptions{}, jobs,
             [&](std::size_t, std::vector<CheckResult> done) {
               for (auto& result : done) results.push_back(std::move(result));
             });
    ASSERT_EQ(results.size(), 2U);
    for (const CheckResult& result : results) {
      const pid_t daemon = std::stoi(result.details.at("pid"));
      ASSERT_GT(daemon, 0);
      EXPECT_TRUE(ProcessIsGone(daemon)) << "the setsid() daemon survived the unit";
      if (!ProcessIsGone(daemon)) kill(daemon, SIGKILL);
    }
  }
}

TEST(CrashCapture, HarnessSurvivesAndRunsTheNextUnit) {
  std::vector<TestUnit> units;
  units.push_back(MakeUnit("a", {"a.x"}, [](UnitContext&) { crashy_segfault(); }));
  units.push_back(MakeUnit("b", {"b.x"}, [](UnitContext& context) {
    context.sink.Emit(Result("b.x", Outcome::kPass));
  }));
  std::vector<std::vector<CheckResult>> by_unit(2);
  RunUnits(units, RunSettings{}, IsolationOptions{}, 1,
           [&](std::size_t index, std::vector<CheckResult> results) {
             by_unit.at(index) = std::move(results);
           });
  EXPECT_THAT(Outcomes(by_unit[0]), ElementsAre(Outcome::kCrash, Outcome::kSkipped));
  EXPECT_THAT(Outcomes(by_unit[1]), ElementsAre(Outcome::kPass));
}

}  // namespace
}  // namespace conformance

namespace conformance {
namespace {

// --no-isolation: exit() in the plugin must not end the run (rc 0, no report); the unit is a
// crash and the next unit still runs.
TEST(CrashCaptureInProcess, ExitInThePluginIsACrashAndTheRunGoesOn) {
  std::vector<TestUnit> units;
  units.push_back(MakeUnit("load.se", {"load.se.init", "load.se.platform"}, [](UnitContext&) {
    in_flight::BeginCheck("load.se.init");
    in_flight::PluginCall call("SE_InitPlugin");
    std::printf("plugin output before exit");
    crashy_exit(0);
  }));
  units.push_back(MakeUnit("load.next", {"load.next.x"}, [](UnitContext& context) {
    context.sink.Emit(Result("load.next.x", Outcome::kPass));
  }));
  IsolationOptions options;
  options.isolate = false;
  std::vector<std::vector<CheckResult>> done(2);
  ::testing::internal::CaptureStdout();
  RunUnits(units, RunSettings{}, options, 1,
           [&](std::size_t index, std::vector<CheckResult> results) {
             done[index] = std::move(results);
           });
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "plugin output before exit");
  ASSERT_EQ(Ids(done[0]), (std::vector<std::string>{"load.se.init", "load.se.platform"}));
  EXPECT_EQ(done[0][0].outcome, Outcome::kCrash);
  EXPECT_EQ(done[0][0].message, "the plugin called exit(0) during SE_InitPlugin");
  EXPECT_EQ(done[0][1].outcome, Outcome::kSkipped);
  EXPECT_THAT(Outcomes(done[1]), ElementsAre(Outcome::kPass));
}

}  // namespace
}  // namespace conformance
