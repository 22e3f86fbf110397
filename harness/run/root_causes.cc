#include "run/root_causes.h"

#include <map>
#include <set>
#include <tuple>

namespace conformance {
namespace {

const std::string* Detail(const CheckResult& result, const char* key) {
  const auto found = result.details.find(key);
  return found == result.details.end() || found->second.empty() ? nullptr : &found->second;
}

}  // namespace

bool IsKernelCallback(std::string_view call) {
  return call == "create_func" || call == "compute_func" || call == "compute_async_func" ||
         call == "delete_func";
}

std::vector<std::string> RootCauseKernels(const std::vector<CheckResult>& results) {
  std::vector<std::string> kernels(results.size());
  // The kernels failing with each (call, problem) of a kernel callback.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> named;
  std::vector<std::size_t> unnamed;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult& result = results[i];
    const std::string* call = Detail(result, kFailingCallKey);
    const std::string* problem = Detail(result, kProblemKey);
    if (!IsFailure(result.outcome) || call == nullptr || problem == nullptr ||
        !IsKernelCallback(*call)) {
      continue;
    }
    if (const std::string* kernel = Detail(result, kKernelKey)) {
      kernels[i] = *kernel;
      named[{*call, *problem}].insert(*kernel);
    } else {
      unnamed.push_back(i);
    }
  }
  for (std::size_t i : unnamed) {
    const auto found =
        named.find({*Detail(results[i], kFailingCallKey), *Detail(results[i], kProblemKey)});
    if (found != named.end() && found->second.size() == 1) kernels[i] = *found->second.begin();
  }
  return kernels;
}

std::string RootCauseLabel(const RootCause& cause) {
  return cause.call + (cause.kernel.empty() ? "" : " (" + cause.kernel + ")") + ": " +
         cause.problem;
}

std::vector<RootCause> GroupRootCauses(const std::vector<CheckResult>& results) {
  std::vector<RootCause> causes;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index_of;
  std::vector<std::string> kernels = RootCauseKernels(results);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const CheckResult& result = results[i];
    if (!IsFailure(result.outcome)) continue;
    const std::string* call = Detail(result, kFailingCallKey);
    const std::string* problem = Detail(result, kProblemKey);
    std::string& kernel = kernels[i];
    if (call != nullptr && problem != nullptr) {
      const auto [slot, inserted] = index_of.try_emplace({*call, *problem, kernel}, causes.size());
      if (!inserted) {
        causes[slot->second].checks.push_back(result.id);
        continue;
      }
    }
    causes.push_back(RootCause{call ? *call : "",
                               problem ? *problem : "",
                               std::move(kernel),
                               result.message,
                               {result.id}});
  }
  return causes;
}

}  // namespace conformance
