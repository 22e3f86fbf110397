#pragma once
// C function pointers that forward into a mock object: the callback's first argument (the
// device, platform, ...) names the mock through the HandleRegistry. A callback that reaches
// a mock which no longer exists reports that instead of touching freed memory.
#include <type_traits>

#include "mocks/handle_registry.h"
#include "tensorflow/c/tf_status.h"

namespace conformance::mocks {

// The TF_Status* among a callback's arguments, if it has one.
inline TF_Status* PickStatus(TF_Status* candidate, TF_Status*) { return candidate; }
template <typename T>
TF_Status* PickStatus(const T&, TF_Status* found) {
  return found;
}
template <typename... A>
TF_Status* FindStatus(const A&... args) {
  TF_Status* found = nullptr;
  ((found = PickStatus(args, found)), ...);
  return found;
}

// Trampoline<&Mock::Method, Resolve, Name>::Call has the C signature of Method; Resolve maps
// the first argument to the mock (nullptr: stale).
template <auto Method, auto Resolve, const char* Name>
struct Trampoline;

template <typename Mock, typename R, typename First, typename... A, R (Mock::*Method)(First, A...),
          auto Resolve, const char* Name>
struct Trampoline<Method, Resolve, Name> {
  static R Call(First first, A... args) {
    Mock* mock = Resolve(first);
    if (mock == nullptr) {
      ReportStaleMock(Name, FindStatus(args...));
      if constexpr (std::is_void_v<R>) {
        return;
      } else {
        return R{};
      }
    }
    return (mock->*Method)(first, args...);
  }
};

}  // namespace conformance::mocks
