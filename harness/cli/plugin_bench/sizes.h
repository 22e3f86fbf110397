#pragma once
// The sizes benchmarks run at, with the labels used in benchmark names ("4KiB", "1MiB").
#include <cstdint>
#include <span>
#include <string>

namespace conformance::bench {

// Copy sizes from the issue: 4 KiB to 256 MiB. 256 MiB keeps a device-to-device copy
// (source + destination, 512 MiB) inside the reference plugin's default 1 GiB device.
std::span<const std::uint64_t> CopySizes();
// Allocation sizes: one granule-sized request up to the largest copy buffer.
std::span<const std::uint64_t> AllocationSizes();

// "256B", "4KiB", "1MiB": exact binary units, so the name says precisely what ran.
std::string SizeLabel(std::uint64_t bytes);

}  // namespace conformance::bench
