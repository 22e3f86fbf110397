#pragma once
// An anonymous in-memory file (memfd) a family's child appends its figures to as it goes; the
// parent reads it once the child has ended, however it ended (bench_families.h).
#include <string>

namespace conformance::bench {

class ProgressFile {
 public:
  ProgressFile();
  ~ProgressFile();
  ProgressFile(const ProgressFile&) = delete;
  ProgressFile& operator=(const ProgressFile&) = delete;

  int fd() const { return fd_; }  // -1 when it could not be made (the table then loses rows)
  std::string Read() const;       // everything written so far

 private:
  int fd_;
};

}  // namespace conformance::bench
