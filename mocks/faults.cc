#include "mocks/faults.h"

#include <cstring>

namespace conformance::mocks {

void ScribblePastEnd(void* storage, std::size_t size, PastEndWrite write) {
  if (write.bytes > 0) std::memset(static_cast<char*>(storage) + size, write.fill, write.bytes);
}

void ReportOk(const Faults& faults, TF_Status* status) {
  if (status != nullptr && !faults.Unwritten(OutParam::kStatus)) TF_SetStatus(status, TF_OK, "");
}

}  // namespace conformance::mocks
