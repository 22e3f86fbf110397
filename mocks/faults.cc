#include "mocks/faults.h"

#include <cstring>

namespace conformance::mocks {

void ScribblePastEnd(void* storage, std::size_t size, std::size_t bytes) {
  if (bytes > 0) std::memset(static_cast<char*>(storage) + size, 0x3C, bytes);
}

void ReportOk(const Faults& faults, TF_Status* status) {
  if (status != nullptr && !faults.Unwritten(OutParam::kStatus)) TF_SetStatus(status, TF_OK, "");
}

}  // namespace conformance::mocks
