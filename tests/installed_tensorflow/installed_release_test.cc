#include "installed_tensorflow/installed_release.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "installed_tensorflow/tensorflow_c_api.h"

namespace tensorflow_driver {
namespace {

namespace fs = std::filesystem;

// The suite's profiles as validate/profile.h lists them (name, releases).
const std::vector<std::pair<std::string, std::string>> kProfiles = {
    {"newest", "2.21"},   {"tf2.19", "2.19-2.20"}, {"tf2.18", "2.18"}, {"tf2.17", "2.17"},
    {"tf2.16", "2.16"},   {"tf2.15", "2.15"},      {"tf2.14", "2.14"}, {"tf2.13", "2.13"},
    {"tf2.12", "2.12"},   {"tf2.11", "2.11"},      {"tf2.10", "2.10"}, {"tf2.9", "2.9"},
    {"tf2.7", "2.7-2.8"}, {"tf2.6", "2.6"},        {"tf2.5", "2.5"}};

TEST(ProfileForRelease, PicksTheProfileWhoseRangeHoldsTheRelease) {
  EXPECT_EQ(ProfileForRelease("2.21.0", kProfiles), "newest");
  EXPECT_EQ(ProfileForRelease("2.20.0", kProfiles), "tf2.19");
  EXPECT_EQ(ProfileForRelease("2.19.1", kProfiles), "tf2.19");
  EXPECT_EQ(ProfileForRelease("2.18.1", kProfiles), "tf2.18");
  EXPECT_EQ(ProfileForRelease("2.17", kProfiles), "tf2.17");
  EXPECT_EQ(ProfileForRelease("2.16.2", kProfiles), "tf2.16");
  EXPECT_EQ(ProfileForRelease("2.15.1", kProfiles), "tf2.15");
  EXPECT_EQ(ProfileForRelease("2.14.1", kProfiles), "tf2.14");
  EXPECT_EQ(ProfileForRelease("2.12", kProfiles), "tf2.12");
  EXPECT_EQ(ProfileForRelease("2.10.0", kProfiles), "tf2.10");
  EXPECT_EQ(ProfileForRelease("2.9.3", kProfiles), "tf2.9");
  EXPECT_EQ(ProfileForRelease("2.8.4", kProfiles), "tf2.7");
  EXPECT_EQ(ProfileForRelease("2.6.5", kProfiles), "tf2.6");
  EXPECT_EQ(ProfileForRelease("2.5.0", kProfiles), "tf2.5");
}

TEST(ProfileForRelease, ASplitProfileTakesItsOwnReleases) {
  // A profile added for later 2.1x releases takes them from the older one by its range alone.
  const std::vector<std::pair<std::string, std::string>> split = {
      {"newest", "2.16+"}, {"tf2.11", "2.11-2.15"}, {"tf2.10", "2.10"}};
  EXPECT_EQ(ProfileForRelease("2.15.1", split), "tf2.11");
  EXPECT_EQ(ProfileForRelease("2.10.1", split), "tf2.10");
}

TEST(ProfileForRelease, NoneForAReleaseNoProfileStandsFor) {
  EXPECT_EQ(ProfileForRelease("2.22.0", kProfiles), std::nullopt);  // not measured
  EXPECT_EQ(ProfileForRelease("2.4.0", kProfiles), std::nullopt);
  EXPECT_EQ(ProfileForRelease("1.15.0", kProfiles), std::nullopt);
  EXPECT_EQ(ProfileForRelease("unknown", kProfiles), std::nullopt);
}

TEST(TensorFlowDirProblem, NamesTheLibraryLookedFor) {
  const fs::path dir = fs::temp_directory_path() / ("tf_dir_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto problem = TensorFlowDirProblem(dir.string());
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find((dir / "libtensorflow_cc.so.2").string()), std::string::npos) << *problem;
  std::ofstream(dir / "libtensorflow_cc.so.2") << "not really";
  EXPECT_EQ(TensorFlowDirProblem(dir.string()), std::nullopt);
  fs::remove_all(dir);
}

// A folder of fake interpreters put first on PATH for one test, and taken off again.
class FakeInterpreters {
 public:
  FakeInterpreters()
      : dir_(fs::temp_directory_path() / ("fake_python_" + std::to_string(getpid()))),
        old_path_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    fs::create_directories(dir_);
    setenv("PATH", (dir_.string() + ":" + old_path_).c_str(), 1);
  }
  ~FakeInterpreters() {
    setenv("PATH", old_path_.c_str(), 1);
    fs::remove_all(dir_);
  }
  void Add(const std::string& name, const std::string& script) {
    const fs::path file = dir_ / name;
    std::ofstream(file) << "#!/bin/sh\n" << script << "\n";
    fs::permissions(file, fs::perms::owner_all);
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
  std::string old_path_;
};

TEST(FindInstalledTensorFlow, AnInterpreterThatHangsIsGivenUpOn) {
  FakeInterpreters fake;
  fake.Add("python3", "exec sleep 60");
  fake.Add("python", "exit 3");  // no tensorflow package
  const auto started = std::chrono::steady_clock::now();
  const FoundTensorFlow found = FindInstalledTensorFlow(/*timeout_ms=*/300);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
  EXPECT_TRUE(found.dir.empty());
  ASSERT_EQ(found.tried.size(), 2u);
  EXPECT_NE(found.tried[0].find("no answer within 300 ms"), std::string::npos) << found.tried[0];
  EXPECT_NE(found.tried[1].find("no tensorflow package"), std::string::npos) << found.tried[1];
}

// An import that fails (a missing CUDA library, say) still has its package folder, which is all
// the driver needs: `auto` must not take it for "no tensorflow package".
TEST(FindInstalledTensorFlow, APackageWhoseImportFailsIsStillFound) {
  FakeInterpreters fake;
  const fs::path package = fake.dir() / "site" / "tensorflow";
  fs::create_directories(package);
  std::ofstream(package / "__init__.py") << "raise ImportError('libcudart.so.12: cannot open')\n";
  std::ofstream(package / "libtensorflow_cc.so.2") << "not really";
  fake.Add("python3",
           "PYTHONPATH='" + (fake.dir() / "site").string() + "' exec /usr/bin/python3 \"$@\"");
  const FoundTensorFlow found = FindInstalledTensorFlow();
  EXPECT_EQ(fs::path(found.dir), package) << (found.tried.empty() ? "" : found.tried.front());
}

TEST(PythonVersionOf, FromThePathItsLinksOrTheWheelTag) {
  const fs::path root = fs::temp_directory_path() / ("python_version_" + std::to_string(getpid()));
  const fs::path venv_package = root / "venv/lib/python3.11/site-packages/tensorflow";
  fs::create_directories(venv_package);
  EXPECT_EQ(PythonVersionOf(venv_package.string()), "3.11");
  // A linked package folder: the version is in the path the link leads to.
  fs::create_directories(root / "linked");
  fs::create_directory_symlink(venv_package, root / "linked/tensorflow");
  EXPECT_EQ(PythonVersionOf((root / "linked/tensorflow").string()), "3.11");
  // `pip install --target DIR`: no pythonX.Y folder, the wheel's record beside the package.
  fs::create_directories(root / "target/tensorflow");
  EXPECT_EQ(PythonVersionOf((root / "target/tensorflow").string()), std::nullopt);
  fs::create_directories(root / "target/tensorflow_cpu-2.21.0.dist-info");
  std::ofstream(root / "target/tensorflow_cpu-2.21.0.dist-info/WHEEL")
      << "Wheel-Version: 1.0\nTag: cp312-cp312-manylinux_2_27_x86_64\n";
  EXPECT_EQ(PythonVersionOf((root / "target/tensorflow").string()), "3.12");
  fs::remove_all(root);
}

}  // namespace
}  // namespace tensorflow_driver
