#pragma once
// TensorFlow's op registry of one release (specs/ops/registry/tensorflow-<release>.ops, written
// by specs/ops/generate_registry.py from the installed wheel), compiled in at build time. Every
// op TensorFlow registers, as facts only: arguments and attrs. The load tier judges a plugin's
// kernels against the registry of the release its profile targets.
//
// Start-up stays cheap: building a registry only indexes its lines by op name; an op is parsed
// the first time it is looked up, then kept.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ops/op_builder.h"
#include "ops/op_def.h"

namespace conformance::ops {

// One registry line: "<op> TAB <input>... TAB -> TAB <output>... TAB | TAB <attr>...", every
// item a spec string of TensorFlow's op-definition grammar, then, when the op sets any of
// OpDef's flags, "TAB ! TAB <flag>..." ("is_stateful", ...). Errors name the op and the spec.
OpBuild ParseRegistryLine(std::string_view line);

class OpRegistry {
 public:
  // `text`: a registry file; '#' lines are comments. It must outlive the registry (the embedded
  // files are static).
  OpRegistry(std::string release, std::string_view text);

  const std::string& release() const { return release_; }
  std::size_t size() const { return lines_.size(); }
  std::vector<std::string_view> OpNames() const;  // sorted
  bool Contains(std::string_view name) const { return Line(name) != nullptr; }
  // The op, parsed on first use; nullptr when TensorFlow does not register it. A line that does
  // not parse is a build defect (the tests parse every line): it aborts with the error.
  const OpDef* Find(std::string_view name) const;

 private:
  const std::string_view* Line(std::string_view name) const;

  std::string release_;
  std::vector<std::pair<std::string_view, std::string_view>> lines_;  // (op name, line), sorted
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::unique_ptr<OpDef>, std::less<>> parsed_;
};

// The registry of a TensorFlow release ("2.21.0"); nullptr when none is embedded.
const OpRegistry* FindOpRegistry(std::string_view release);
std::vector<std::string> OpRegistryReleases();  // every embedded release, ascending

}  // namespace conformance::ops
