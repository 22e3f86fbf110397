#include "kernels/tstring_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace conformance::kernels {
namespace {

// One probe moves at most this much through the pipe (its default capacity), so a write never
// blocks on a reader that is the same thread.
constexpr std::size_t kChunk = std::size_t{64} * 1024;

std::string Invalid(const char* form, const char* what, std::size_t size, const void* data) {
  char text[160];
  std::snprintf(text, sizeof text, "<invalid TF_TString: %s (%s form, size %zu, data %p)>", what,
                form, size, data);
  return text;
}

}  // namespace

TStringReader::TStringReader() {
  if (pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) != 0) pipe_[0] = pipe_[1] = -1;
}

TStringReader::~TStringReader() {
  for (const int fd : pipe_)
    if (fd >= 0) close(fd);
}

bool TStringReader::CopyReadable(const char* data, std::size_t size, std::string& out) {
  out.clear();
  out.reserve(size);
  if (pipe_[0] < 0) return false;
  // write() from an address the process cannot read fails with EFAULT instead of faulting, so
  // the bytes are probed and copied in one go (the kernel reads them, not this thread).
  for (std::size_t done = 0; done < size;) {
    const std::size_t want = std::min(kChunk, size - done);
    const ssize_t wrote = write(pipe_[1], data + done, want);
    if (wrote <= 0) {
      char drain[4096];
      while (read(pipe_[0], drain, sizeof drain) > 0) {
      }
      return false;
    }
    char buffer[4096];
    for (ssize_t left = wrote; left > 0;) {
      const ssize_t got = read(
          pipe_[0], buffer, std::min<std::size_t>(sizeof buffer, static_cast<std::size_t>(left)));
      if (got <= 0) return false;
      out.append(buffer, static_cast<std::size_t>(got));
      left -= got;
    }
    done += static_cast<std::size_t>(wrote);
  }
  return true;
}

std::string TStringReader::Read(const TF_TString& element) {
  std::string bytes;
  std::string problem = Problem(element, bytes);
  return problem.empty() ? bytes : problem;
}

bool TStringReader::Valid(const TF_TString& element) {
  std::string bytes;
  return Problem(element, bytes).empty();
}

std::string TStringReader::Problem(const TF_TString& element, std::string& bytes) {
  bytes.clear();
  const std::size_t size = TF_TString_GetSize(&element);
  const char* data = TF_TString_GetDataPointer(&element);
  const char* form = "small";
  switch (TF_TString_GetType(&element)) {
    case TF_TSTR_SMALL:
      if (size > TF_TString_SmallCapacity) return Invalid(form, "size over 22 bytes", size, data);
      bytes.assign(data, size);  // inside the element itself, which the harness owns
      return {};
    case TF_TSTR_LARGE:
      form = "large";
      if (size > element.u.large.cap) return Invalid(form, "size over its capacity", size, data);
      break;
    case TF_TSTR_OFFSET: form = "offset"; break;
    case TF_TSTR_VIEW: form = "view"; break;
  }
  if (size == 0) return {};
  if (size > kLongestBelievedString) return Invalid(form, "implausible size", size, data);
  if (data == nullptr) return Invalid(form, "null data pointer", size, data);
  if (!CopyReadable(data, size, bytes)) return Invalid(form, "data not readable", size, data);
  return {};
}

}  // namespace conformance::kernels
