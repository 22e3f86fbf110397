#pragma once
// Where a report goes, without ever destroying what the path points at:
//  - "-": standard output;
//  - a symlink: written through to its final target (the link stays a link);
//  - a target that exists and is not a regular file (/dev/null, /dev/full, a FIFO, a
//    terminal), or any path under /dev or /proc (/dev/stdout): opened and written directly,
//    never replaced;
//  - a regular file or a new path: replaced atomically (atomic_file.h).
// Write errors (ENOSPC on /dev/full, EPIPE) throw FileWriteError naming the path.
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "report/atomic_file.h"

namespace conformance {

inline constexpr std::string_view kStandardOutputPath = "-";

void WriteReportFile(const std::string& path, std::string_view content,
                     std::ostream& standard_output);

// Checked before a run starts: an empty path, a directory, a missing or unwritable parent
// directory. nullopt when the path is usable.
std::optional<std::string> ProblemWithReportPath(const std::string& path);

// Whether two report paths name the same file ("-" twice, the same file through different
// spellings or links).
bool SameReportTarget(const std::string& a, const std::string& b);

}  // namespace conformance
