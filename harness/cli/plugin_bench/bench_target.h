#pragma once
// One plugin under benchmark: its DeviceSession (opened exactly as TensorFlow opens a plugin)
// and device 0. Setup (buffers, streams, events) goes through the checked runtime wrappers;
// timed loops call the raw SP_StreamExecutor callbacks through se() and device() so that the
// wrappers' verification work (poisoning, findings, accounting) stays out of the numbers.
#include <filesystem>
#include <memory>
#include <string>

#include "runtime/call_error.h"
#include "runtime/device.h"
#include "runtime/device_session.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

namespace conformance::bench {

class BenchTarget {
 public:
  // `role` names the target in benchmark names: "candidate" or "reference".
  static runtime::CallResult<std::unique_ptr<BenchTarget>> Open(
      std::string role, const std::filesystem::path& plugin);
  BenchTarget(const BenchTarget&) = delete;
  BenchTarget& operator=(const BenchTarget&) = delete;

  const std::string& role() const { return role_; }
  const std::filesystem::path& path() const { return path_; }
  runtime::Device& wrapped_device() const { return *device_; }

  // The raw table and device for timed loops.
  const SP_StreamExecutor& se() const { return session_->stream_executor(); }
  const SP_Device* device() const { return device_->get(); }

 private:
  BenchTarget(std::string role, std::filesystem::path path,
              std::unique_ptr<runtime::DeviceSession> session, runtime::Device* device)
      : role_(std::move(role)),
        path_(std::move(path)),
        session_(std::move(session)),
        device_(device) {}

  std::string role_;
  std::filesystem::path path_;
  std::unique_ptr<runtime::DeviceSession> session_;
  runtime::Device* device_;  // owned by session_
};

}  // namespace conformance::bench
