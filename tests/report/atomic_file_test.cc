// Atomic report writes: complete files or clear errors, never temporary files left over.
#include "report/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace conformance {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("atomic_file_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::size_t EntriesIn(const fs::path& dir) const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
  }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesTheWholeContent) {
  const fs::path path = dir_ / "report.json";
  WriteFileAtomically(path, "{\"a\": 1}\n");
  EXPECT_EQ(Read(path), "{\"a\": 1}\n");
  EXPECT_EQ(EntriesIn(dir_), 1u);
}

TEST_F(AtomicFileTest, ReplacesAnExistingFile) {
  const fs::path path = dir_ / "report.xml";
  WriteFileAtomically(path, std::string(100000, 'x'));
  WriteFileAtomically(path, "short");
  EXPECT_EQ(Read(path), "short");
  EXPECT_EQ(EntriesIn(dir_), 1u);
}

TEST_F(AtomicFileTest, MissingDirectoryIsAClearError) {
  const fs::path path = dir_ / "no" / "such" / "report.json";
  try {
    WriteFileAtomically(path, "x");
    FAIL() << "expected FileWriteError";
  } catch (const FileWriteError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
    EXPECT_EQ(error.error_number(), ENOENT);
  }
  EXPECT_EQ(EntriesIn(dir_), 0u);
}

TEST_F(AtomicFileTest, TargetIsADirectoryLeavesNoTemporaryFile) {
  fs::create_directories(dir_ / "taken");
  EXPECT_THROW(WriteFileAtomically(dir_ / "taken", "x"), FileWriteError);
  EXPECT_EQ(EntriesIn(dir_), 1u);  // only the directory itself
  EXPECT_EQ(EntriesIn(dir_ / "taken"), 0u);
}

TEST_F(AtomicFileTest, UnwritableDirectoryLeavesNothing) {
  if (geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(WriteFileAtomically(dir_ / "r.json", "x"), FileWriteError);
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_EQ(EntriesIn(dir_), 0u);
}

TEST_F(AtomicFileTest, FileSystemThatRefusesNewFilesIsAClearError) {
  // /proc refuses to create files even for root, unlike a read-only directory.
  try {
    WriteFileAtomically("/proc/plugin_conformance_report.json", "x");
    FAIL() << "expected FileWriteError";
  } catch (const FileWriteError& error) {
    EXPECT_NE(
        std::string(error.what()).find("cannot write '/proc/plugin_conformance_report.json': "),
        std::string::npos)
        << error.what();
  }
}

TEST_F(AtomicFileTest, NewFilesFollowTheUmaskNotMkstempsPrivateMode) {
  const mode_t old = umask(022);
  WriteFileAtomically(dir_ / "r.json", "x");
  umask(old);
  EXPECT_EQ(fs::status(dir_ / "r.json").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
}

TEST_F(AtomicFileTest, PreflightCheckFindsProblemsBeforeARun) {
  EXPECT_FALSE(ProblemWritingTo(dir_ / "ok.json").has_value());
  const auto missing = ProblemWritingTo(dir_ / "missing" / "r.json");
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("does not exist"), std::string::npos) << *missing;
  EXPECT_TRUE(ProblemWritingTo(dir_).has_value());  // a directory, not a file
  std::ofstream(dir_ / "file") << "x";
  const auto not_dir = ProblemWritingTo(dir_ / "file" / "r.json");
  ASSERT_TRUE(not_dir.has_value());
  EXPECT_NE(not_dir->find("is not a directory"), std::string::npos) << *not_dir;
}

}  // namespace
}  // namespace conformance
