#pragma once
// Reads one TF_TString a kernel left in an output without trusting it. A kernel that writes
// other bytes into a string tensor (a float result copied over it, a stale pointer) leaves
// elements whose size or data pointer is garbage; TensorFlow dereferences them and crashes, or
// reads freed memory. The harness must not crash in its place, nor blame the check that was
// comparing: each element is checked (its form's size bound, its bytes readable, probed through
// the kernel, never by touching them) and an invalid one reads back as a text that says why,
// which no expected value equals, so the case fails on the kernel with that text.
#include <string>

#include "tensorflow/c/tf_tstring.h"

namespace conformance::kernels {

// The longest element the harness believes: no generated or scenario case expects more, and a
// garbage size beyond it would have the probe read the whole address space.
inline constexpr std::size_t kLongestBelievedString = std::size_t{64} << 20;

class TStringReader {
 public:
  TStringReader();
  ~TStringReader();
  TStringReader(const TStringReader&) = delete;
  TStringReader& operator=(const TStringReader&) = delete;

  // The element's bytes, or "<invalid TF_TString: ...>" saying what is wrong, in which form.
  std::string Read(const TF_TString& element);
  bool Valid(const TF_TString& element);

 private:
  // What is wrong with the element ("" if nothing), its bytes in `bytes` when nothing is.
  std::string Problem(const TF_TString& element, std::string& bytes);
  // Copies `size` bytes at `data` into `out` if every one is readable (false otherwise).
  bool CopyReadable(const char* data, std::size_t size, std::string& out);
  int pipe_[2] = {-1, -1};
};

}  // namespace conformance::kernels
