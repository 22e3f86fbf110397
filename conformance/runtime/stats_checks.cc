// get_allocator_stats and device_memory_usage agree with the allocations the harness makes.
#include <optional>
#include <string>
#include <vector>

#include "check_support.h"
#include "runtime_units.h"

namespace conformance::runtime_checks {
namespace {

constexpr std::int64_t kStatsBytes = 3 << 20;  // even: see memory_checks.cc

std::string N(std::int64_t value) { return std::to_string(value); }

std::optional<std::string> Invariants(const runtime::AllocatorStatsReading& stats,
                                      const char* when) {
  const std::string at = std::string(" (") + when + ")";
  if (stats.bytes_in_use < 0) return "bytes_in_use is negative: " + N(stats.bytes_in_use) + at;
  if (stats.peak_bytes_in_use_written && stats.peak_bytes_in_use < stats.bytes_in_use) {
    return "peak_bytes_in_use " + N(stats.peak_bytes_in_use) + " < bytes_in_use " +
           N(stats.bytes_in_use) + at;
  }
  if (stats.has_bytes_limit && stats.bytes_limit < stats.bytes_in_use) {
    return "bytes_limit " + N(stats.bytes_limit) + " < bytes_in_use " + N(stats.bytes_in_use) + at;
  }
  return std::nullopt;
}

Verdict Allocator(CheckEnv& env) {
  auto before = env.device.AllocatorStats();
  if (!before.ok()) return Verdict::CallFailed(before.error(), "get_allocator_stats");
  if (!before->returned_true)
    return Verdict::NotSupported(
        "get_allocator_stats returns false (TensorFlow then has no statistics)");
  if (before->struct_size == 0)
    return Verdict::Fail("get_allocator_stats set struct_size to 0 (TensorFlow ignores the stats)");
  if (!before->num_allocs_written || !before->bytes_in_use_written) {
    // Name only the fields that really stayed unwritten.
    std::string unwritten = !before->num_allocs_written ? "num_allocs" : "";
    if (!before->bytes_in_use_written)
      unwritten += std::string(unwritten.empty() ? "" : " and ") + "bytes_in_use";
    // TensorFlow's device allocators (BFC, or the simple one without BFC) count their own
    // statistics and never ask the plugin; only StreamExecutor::GetAllocatorStats callers see
    // these numbers. No tensor, no memory limit depends on them: a warning.
    return Verdict::Warning(
        "get_allocator_stats returned true without writing " + unwritten +
            " (TensorFlow's allocator keeps its own statistics, so only tools reading "
            "StreamExecutor::GetAllocatorStats see zeros)",
        {{"failing_call", "get_allocator_stats"}, {"problem", "out-parameter never written"}});
  }
  if (auto problem = Invariants(*before, "before")) return Verdict::Fail(*problem);
  auto buffer = env.device.Allocate(kStatsBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  auto during = env.device.AllocatorStats();
  if (!during.ok() || !during->returned_true)
    return Verdict::Fail("get_allocator_stats stopped working after an allocation");
  if (auto problem = Invariants(*during, "after allocating")) return Verdict::Fail(*problem);
  Details details{{"bytes_in_use", N(before->bytes_in_use) + " -> " + N(during->bytes_in_use)},
                  {"num_allocs", N(before->num_allocs) + " -> " + N(during->num_allocs)}};
  if (during->bytes_in_use < before->bytes_in_use + kStatsBytes) {
    return Verdict::Fail("bytes_in_use grew by " + N(during->bytes_in_use - before->bytes_in_use) +
                             " for a " + N(kStatsBytes) + "-byte allocation",
                         details);
  }
  if (during->num_allocs < before->num_allocs + 1)
    return Verdict::Fail("num_allocs did not count the allocation", details);
  if (during->largest_alloc_size_written && during->largest_alloc_size < kStatsBytes) {
    return Verdict::Fail("largest_alloc_size " + N(during->largest_alloc_size) +
                             " is smaller than a live " + N(kStatsBytes) + "-byte allocation",
                         details);
  }
  buffer->Reset();
  auto after = env.device.AllocatorStats();
  if (!after.ok() || !after->returned_true)
    return Verdict::Fail("get_allocator_stats stopped working after a deallocation");
  if (auto problem = Invariants(*after, "after freeing")) return Verdict::Fail(*problem);
  details["bytes_in_use"] += " -> " + N(after->bytes_in_use);
  details["num_allocs"] += " -> " + N(after->num_allocs);
  if (after->bytes_in_use > before->bytes_in_use) {
    return Verdict::Fail("bytes_in_use did not return to its earlier value after the deallocation",
                         details);
  }
  if (after->num_allocs < during->num_allocs) return Verdict::Fail("num_allocs went down", details);
  if (during->peak_bytes_in_use_written && after->peak_bytes_in_use < during->peak_bytes_in_use) {
    return Verdict::Fail("peak_bytes_in_use went down", details);
  }
  return Verdict::Pass(details);
}

// What free + bytes_in_use > total blames: two callbacks' numbers disagree, so each leg is
// checked on its own. get_allocator_stats's bytes_in_use must follow the check's own allocation
// (up by its size, and down again when it is freed); if it does not, its number is the wrong
// one, not device_memory_usage's.
struct SumDisagreement {
  std::string message;               // the first reading whose sum exceeded total
  std::vector<std::int64_t> in_use;  // bytes_in_use before, while allocated, after freeing
};

Verdict BlameSum(const SumDisagreement& sum, Details details) {
  const auto& in_use = sum.in_use;
  const bool follows = in_use.size() == 3 && in_use[1] >= in_use[0] + kStatsBytes &&
                       in_use[2] <= in_use[1] - kStatsBytes;
  if (follows) {
    details["failing_call"] = "device_memory_usage";
    details["problem"] = "inconsistent numbers";
    return Verdict::Fail(sum.message, details);
  }
  std::string trace;
  for (const std::int64_t value : in_use) trace += (trace.empty() ? "" : " -> ") + N(value);
  details["bytes_in_use"] = trace;
  details["failing_call"] = "get_allocator_stats";
  details["problem"] = "wrong statistics";
  return Verdict::Fail(sum.message + ": get_allocator_stats's bytes_in_use does not follow a " +
                           N(kStatsBytes) +
                           "-byte allocation on its own (before, allocated, freed: " + trace +
                           "), so its number is the wrong one, not device_memory_usage's",
                       details);
}

Verdict MemoryUsage(CheckEnv& env) {
  auto stats = env.device.AllocatorStats();
  const bool have_stats = stats.ok() && stats->returned_true && stats->bytes_in_use_written;
  std::int64_t total = -1;
  Details details;
  std::optional<SumDisagreement> sum;
  std::vector<std::int64_t> in_use;
  auto read = [&](const char* when) -> std::optional<std::string> {
    auto usage = env.device.MemoryUsage();
    if (!usage.ok()) {
      Blame(details, usage.error());
      return "device_memory_usage: " + usage.error().Describe();
    }
    if (!usage->returned_true) return std::string("unsupported");
    details["failing_call"] = "device_memory_usage";
    details["problem"] = "inconsistent numbers";
    if (!usage->free_written || !usage->total_written) {
      details["problem"] = "out-parameter never written";
      return std::string("device_memory_usage returned true without writing ") +
             (usage->free_written    ? "*total"
              : usage->total_written ? "*free"
                                     : "*free and *total") +
             " (" + when + ")";
    }
    details[std::string("free_") + when] = N(usage->free);
    if (usage->total <= 0) return "total is " + N(usage->total) + " (" + when + ")";
    if (usage->free < 0 || usage->free > usage->total) {
      return "free " + N(usage->free) + " is outside [0, total " + N(usage->total) + "] (" + when +
             ")";
    }
    if (total >= 0 && usage->total != total)
      return "total changed from " + N(total) + " to " + N(usage->total);
    total = usage->total;
    if (have_stats) {
      auto now = env.device.AllocatorStats();
      if (now.ok() && now->returned_true) {
        in_use.push_back(now->bytes_in_use);
        if (!sum && usage->free + now->bytes_in_use > usage->total) {
          sum =
              SumDisagreement{"free " + N(usage->free) + " + bytes_in_use " + N(now->bytes_in_use) +
                                  " exceeds total " + N(usage->total) + " (" + when + ")",
                              {}};
        }
      }
    }
    return std::nullopt;
  };
  if (auto problem = read("before")) {
    if (*problem == "unsupported")
      return Verdict::NotSupported("device_memory_usage returns false");
    return Verdict::Fail(*problem, details);
  }
  auto buffer = env.device.Allocate(kStatsBytes);
  if (!buffer.ok()) return Verdict::CallFailed(buffer.error(), "allocate");
  if (auto problem = read("allocated"))
    return Verdict::Fail(
        *problem == "unsupported" ? "device_memory_usage stopped working" : *problem, details);
  buffer->Reset();
  if (auto problem = read("freed"))
    return Verdict::Fail(
        *problem == "unsupported" ? "device_memory_usage stopped working" : *problem, details);
  if (sum) {
    sum->in_use = in_use;
    return BlameSum(*sum, details);
  }
  details["total"] = N(total);
  details.erase("failing_call");  // set while reading, for a failure; a pass names no culprit
  details.erase("problem");
  return Verdict::Pass(details);
}

}  // namespace

std::vector<TestUnit> StatsUnits() {
  return {MakeRuntimeUnit(
      "runtime.stats", "runtime", {"runtime.stats.allocator", "runtime.stats.memory_usage"},
      [](CheckEnv& env) {
        RunCheck(env, "runtime.stats.allocator", [&] { return Allocator(env); });
        RunCheck(env, "runtime.stats.memory_usage", [&] { return MemoryUsage(env); });
      })};
}

}  // namespace conformance::runtime_checks
