#include "runtime/copy_hold.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace conformance::runtime {
namespace {

std::string Failed(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

CopyHold::CopyHold(std::chrono::milliseconds waiting_streak, std::chrono::milliseconds limit)
    : gate_(waiting_streak, limit) {
  // User-mode faults only: what an unprivileged process may ask for, and a plugin's memcpy is
  // one.
  fault_fd_ =
      static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY));
  if (fault_fd_ < 0) {
    error_ = Failed("userfaultfd");
    return;
  }
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = UFFD_FEATURE_THREAD_ID;  // which thread faulted: the check's own is never held
  if (ioctl(fault_fd_, UFFDIO_API, &api) != 0) {
    error_ = Failed("userfaultfd UFFDIO_API");
    return;
  }
  page_bytes_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  page_ = mmap(nullptr, page_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page_ == MAP_FAILED) {
    page_ = nullptr;
    error_ = Failed("mmap");
    return;
  }
  uffdio_register region{};
  region.range.start = reinterpret_cast<std::uintptr_t>(page_);
  region.range.len = page_bytes_;
  region.mode = UFFDIO_REGISTER_MODE_MISSING;
  if (ioctl(fault_fd_, UFFDIO_REGISTER, &region) != 0) {
    error_ = Failed("userfaultfd UFFDIO_REGISTER");
    return;
  }
  stop_fd_ = eventfd(0, EFD_CLOEXEC);
  if (stop_fd_ < 0) {
    error_ = Failed("eventfd");
    return;
  }
  server_ = std::thread([this] { Serve(); });
}

CopyHold::~CopyHold() {
  gate_.Open();
  if (server_.joinable()) {
    const std::uint64_t one = 1;
    (void)!write(stop_fd_, &one, sizeof one);
    server_.join();
  }
  if (stop_fd_ >= 0) close(stop_fd_);
  // Closing the descriptor unregisters the page: a copy still queued reads a zero page then.
  if (fault_fd_ >= 0) close(fault_fd_);
  // The page stays mapped: a copy the plugin has queued may still read it, and unmapping it
  // would make the plugin fault in the harness's stead. One page per hold, in a unit's child.
}

void CopyHold::Serve() {
  for (;;) {
    pollfd fds[2] = {{fault_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[0].revents & POLLIN) {
      uffd_msg message{};
      if (read(fault_fd_, &message, sizeof message) == sizeof message &&
          message.event == UFFD_EVENT_PAGEFAULT) {
        gate_.HoldFor(static_cast<pid_t>(message.arg.pagefault.feat.ptid));
        uffdio_zeropage zero{};
        zero.range.start = reinterpret_cast<std::uintptr_t>(page_);
        zero.range.len = page_bytes_;
        // EEXIST: the page is there already (another fault on it was served); nothing to do.
        (void)ioctl(fault_fd_, UFFDIO_ZEROPAGE, &zero);
      }
      continue;
    }
    if (fds[1].revents & POLLIN) return;
  }
}

}  // namespace conformance::runtime
