// --html and --bench through the real command-line logic (fake units, in-process runner): the
// HTML report is written with the same safe-write rules as the other reports, a bad --bench
// file is a usage error before anything runs, and the page comes from the JSON's document.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/plugin_identity.h"
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/run_cli.h"
#include "run/exit_code.h"

namespace conformance {
namespace {

namespace fs = std::filesystem;

class Sink : public ResultSink {
 public:
  void Emit(CheckResult result) override { results.push_back(std::move(result)); }
  std::vector<CheckResult> results;
};

class HtmlCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("html_cli_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  int Run(std::vector<std::string> args) {
    args.insert(args.begin(), {"plugin_conformance", "plugin.so"});
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    out_.str("");
    err_.str("");
    TestUnit unit{.name = "load.library",
                  .tier = "load",
                  .check_ids = {"load.library.dlopen"},
                  .run = nullptr,
                  .prerequisites = {}};
    unit.run = [](UnitContext& context) {
      CheckResult result;
      result.id = "load.library.dlopen";
      result.outcome = Outcome::kFail;
      result.message = "<script>bad()</script>";
      context.sink.Emit(result);
    };
    const CliEnvironment environment{
        .build_suite = [unit](const RunSettings&) { return std::vector<TestUnit>{unit}; },
        .run_units =
            [this](const std::vector<TestUnit>& units, const RunSettings& settings,
                   const IsolationOptions&, int, const UnitDone& on_done) {
              for (std::size_t i = 0; i < units.size(); ++i) {
                ++units_run_;
                Sink sink;
                UnitContext context{settings, sink};
                units[i].run(context);
                on_done(i, std::move(sink.results));
              }
            },
        .lookup = {},
        .env = [](const char*) -> const char* { return nullptr; },
        .out = &out_,
        .err = &err_,
        .colour = false,
        .version = "1.0",
        .cpu_count = 1,
        .profiles = {},
    };
    return RunCli(static_cast<int>(argv.size()), argv.data(), environment);
  }

  std::string Read(const fs::path& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  }

  fs::path dir_;
  std::ostringstream out_;
  std::ostringstream err_;
  int units_run_ = 0;
};

TEST_F(HtmlCliTest, WritesThePageFromTheSameRunAsTheJson) {
  const fs::path html = dir_ / "report.html";
  EXPECT_EQ(Run({"--html", html.string(), "--json", (dir_ / "r.json").string()}),
            static_cast<int>(ExitCode::kPluginNotLoaded));  // load.library failed
  const std::string page = Read(html);
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(page.find("id=\"check-load.library.dlopen\""), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;bad()"), std::string::npos);
  EXPECT_NE(Read(dir_ / "r.json").find("\"seed\""), std::string::npos);
}

TEST_F(HtmlCliTest, SymlinkIsWrittenThroughAndStaysALink) {
  std::ofstream(dir_ / "target.html") << "old";
  fs::create_symlink("target.html", dir_ / "link.html");
  Run({"--html", (dir_ / "link.html").string()});
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.html"));
  EXPECT_TRUE(Read(dir_ / "target.html").starts_with("<!DOCTYPE html>"));
}

TEST_F(HtmlCliTest, DeviceWriteErrorIsExit4AndTheOtherReportsStillWritten) {
  EXPECT_EQ(Run({"--html", "/dev/full", "--json", (dir_ / "r.json").string()}),
            static_cast<int>(ExitCode::kInternalError));
  EXPECT_NE(err_.str().find("/dev/full"), std::string::npos) << err_.str();
  EXPECT_FALSE(Read(dir_ / "r.json").empty());
}

TEST_F(HtmlCliTest, StandardOutputCarriesOnlyThePage) {
  Run({"--html", "-"});
  EXPECT_TRUE(out_.str().starts_with("<!DOCTYPE html>")) << out_.str().substr(0, 80);
  EXPECT_NE(err_.str().find("NOT CONFORMANT"), std::string::npos);  // the console report
}

TEST_F(HtmlCliTest, PathProblemsAreUsageErrorsBeforeTheRun) {
  EXPECT_EQ(Run({"--html", (dir_ / "missing" / "r.html").string()}),
            static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("--html"), std::string::npos);
  EXPECT_EQ(Run({"--html", (dir_ / "same").string(), "--json", (dir_ / "same").string()}),
            static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("--json and --html name the same file"), std::string::npos)
      << err_.str();
  EXPECT_EQ(units_run_, 0);
}

TEST_F(HtmlCliTest, BadBenchFileIsAUsageErrorBeforeTheRun) {
  std::ofstream(dir_ / "bench.txt") << "memcpy/htod_async/4KiB  1.2 GiB/s\n";
  const std::string html = (dir_ / "r.html").string();
  EXPECT_EQ(Run({"--html", html, "--bench", (dir_ / "bench.txt").string()}),
            static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("--bench '" + (dir_ / "bench.txt").string() + "': not a JSON document"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(Run({"--html", html, "--bench", (dir_ / "none.json").string()}),
            static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("cannot read it"), std::string::npos) << err_.str();
  EXPECT_EQ(Run({"--bench", (dir_ / "bench.txt").string()}),
            static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("add --html FILE"), std::string::npos) << err_.str();
  EXPECT_EQ(units_run_, 0);
  EXPECT_FALSE(fs::exists(html));
}

TEST_F(HtmlCliTest, BenchChartLandsInThePage) {
  std::ofstream(dir_ / "bench.json")
      << R"({"benchmarks": [{"name": "memcpy/htod_async/4KiB/candidate/real_time",
             "run_type": "iteration", "bytes_per_second": 1e9}]})";
  const fs::path html = dir_ / "r.html";
  Run({"--html", html.string(), "--bench", (dir_ / "bench.json").string()});
  EXPECT_NE(Read(html).find("<section id=\"bandwidth\">"), std::string::npos);
  EXPECT_NE(Read(html).find("candidate, 4KiB: 1.000 GB/s"), std::string::npos);
}

// plugin_bench records the plugin it measured; a chart of another plugin is refused, and a
// file that records none is attached with a warning.
TEST_F(HtmlCliTest, BenchOfAnotherPluginIsRefused) {
  std::ofstream("plugin.so") << "the plugin under test";  // Run() tests ./plugin.so
  const auto bench = [&](const std::string& context) {
    std::ofstream(dir_ / "bench.json")
        << R"({"context": )" << context
        << R"(, "benchmarks": [{"name": "memcpy/htod_async/4KiB/candidate/real_time",
               "run_type": "iteration", "bytes_per_second": 1e9}]})";
    return (dir_ / "bench.json").string();
  };
  const std::string html = (dir_ / "r.html").string();
  EXPECT_EQ(
      Run({"--html", html, "--bench",
           bench(R"({"plugin_path": "/x/other.so", "plugin_size": "3", "plugin_build_id": ""})")}),
      static_cast<int>(ExitCode::kUsageError));
  EXPECT_NE(err_.str().find("is another plugin's benchmark: it measured /x/other.so (3 bytes), "
                            "not this plugin"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(units_run_, 0);

  const std::optional<PluginIdentity> same = IdentifyPlugin("plugin.so");
  ASSERT_TRUE(same.has_value());
  nlohmann::json context = {{"plugin_path", same->path},
                            {"plugin_size", std::to_string(same->size)},
                            {"plugin_build_id", same->build_id}};
  Run({"--html", html, "--bench", bench(context.dump())});
  EXPECT_NE(Read(html).find("<section id=\"bandwidth\">"), std::string::npos) << err_.str();

  Run({"--html", html, "--bench", bench("{}")});
  EXPECT_NE(err_.str().find("records no plugin"), std::string::npos) << err_.str();
  fs::remove("plugin.so");
}

TEST(PluginIdentityTest, ReadsTheGnuBuildIdOfAnElfFile) {
  const std::optional<PluginIdentity> self = IdentifyPlugin("/proc/self/exe");
  ASSERT_TRUE(self.has_value());
  EXPECT_EQ(self->build_id.size(), 40u) << self->build_id;  // sha1, as GNU ld writes it
  PluginIdentity other = *self;
  other.build_id[0] = other.build_id[0] == '0' ? '1' : '0';
  EXPECT_EQ(IdentityMismatch(*self, *self), "");
  EXPECT_NE(IdentityMismatch(other, *self).find("build id"), std::string::npos);
}

}  // namespace
}  // namespace conformance
