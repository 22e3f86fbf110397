// TF_SetStatusFromIOError: the errno -> TF_Code table TensorFlow's POSIX file system
// uses, and its "<context>; <strerror>" message form.
#include <cerrno>
#include <cstring>
#include <string>

#include "core/status.h"

namespace {

TF_Code CodeFromErrno(int error) {
  switch (error) {
    case 0: return TF_OK;
    case EINVAL:
    case ENAMETOOLONG:
    case E2BIG:
    case EDESTADDRREQ:
    case EDOM:
    case EFAULT:
    case EILSEQ:
    case ENOPROTOOPT:
    case ENOSTR:
    case ENOTSOCK:
    case ENOTTY:
    case EPROTOTYPE:
    case ESPIPE: return TF_INVALID_ARGUMENT;
    case ETIMEDOUT:
    case ETIME: return TF_DEADLINE_EXCEEDED;
    case ENODEV:
    case ENOENT:
    case ENXIO:
    case ESRCH: return TF_NOT_FOUND;
    case EEXIST:
    case EADDRNOTAVAIL:
    case EALREADY: return TF_ALREADY_EXISTS;
    case EPERM:
    case EACCES:
    case EROFS: return TF_PERMISSION_DENIED;
    case ENOTEMPTY:
    case EISDIR:
    case ENOTDIR:
    case EADDRINUSE:
    case EBADF:
    case EBUSY:
    case ECHILD:
    case EISCONN:
    case ENOTBLK:
    case ENOTCONN:
    case EPIPE:
    case ESHUTDOWN:
    case ETXTBSY: return TF_FAILED_PRECONDITION;
    case ENOSPC:
    case EDQUOT:
    case EMFILE:
    case EMLINK:
    case ENFILE:
    case ENOBUFS:
    case ENODATA:
    case ENOMEM:
    case ENOSR:
    case EUSERS: return TF_RESOURCE_EXHAUSTED;
    case EFBIG:
    case EOVERFLOW:
    case ERANGE: return TF_OUT_OF_RANGE;
    // ENOTSUP and EOPNOTSUPP share a value on Linux.
    case ENOSYS:
    case ENOTSUP:
    case EAFNOSUPPORT:
    case EPFNOSUPPORT:
    case EPROTONOSUPPORT:
    case ESOCKTNOSUPPORT:
    case EXDEV: return TF_UNIMPLEMENTED;
    // EWOULDBLOCK equals EAGAIN on Linux.
    case EAGAIN:
    case ECONNREFUSED:
    case ECONNABORTED:
    case ECONNRESET:
    case EINTR:
    case EHOSTDOWN:
    case EHOSTUNREACH:
    case ENETDOWN:
    case ENETRESET:
    case ENETUNREACH:
    case ENOLCK:
    case ENOLINK:
    case ENONET: return TF_UNAVAILABLE;
    case EDEADLK:
    case ESTALE: return TF_ABORTED;
    case ECANCELED: return TF_CANCELLED;
    default: return TF_UNKNOWN;
  }
}

}  // namespace

extern "C" void TF_SetStatusFromIOError(TF_Status* s, int error_code, const char* context) {
  std::string message = context == nullptr ? "" : context;
  message += "; ";
  message += std::strerror(error_code);
  s->status = conformance::core::Status::Error(CodeFromErrno(error_code), std::move(message));
}
