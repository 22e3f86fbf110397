#pragma once
// What one case of a kernel scenario needs in memory before the kernel even runs, judged
// before its inputs are made: a case no device (or no host) can hold is reported
// not_supported naming the limit, instead of the process that tried dying on it.
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/kernel_scenario.h"

namespace conformance::kernels {

// Bytes of the case's inputs (saturating at INT64_MAX: a shape's element count fits, its bytes
// need not).
std::int64_t InputBytes(const KernelScenario& scenario, TF_DataType dtype, std::size_t shape);

// Why the case cannot run where `device_bytes` is the device's whole memory (0: unknown), as
// "case float [20000,20000] x [20000,20000] needs 3.2 GB for its inputs alone; <holder> holds
// 1 GiB (device_memory_usage)"; nullopt when it fits. The host's memory bounds it too: the
// harness makes every input on the host first.
std::optional<std::string> OversizedCase(const KernelScenario& scenario, TF_DataType dtype,
                                         std::size_t shape, std::int64_t device_bytes,
                                         const std::string& holder);

// The host's physical memory in bytes (0: unknown).
std::int64_t HostMemoryBytes();

// "1 GiB", "3.2 GB": a byte count as a person reads it.
std::string ByteCountText(std::int64_t bytes);

}  // namespace conformance::kernels
