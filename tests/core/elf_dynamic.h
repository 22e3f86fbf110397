#pragma once
// What `readelf -d` and `nm -D` show about a shared library, read with libelf: its
// DT_SONAME, DT_NEEDED entries and dynamic symbols.
#include <set>
#include <string>
#include <vector>

namespace conformance::core::testing {

struct DynamicInfo {
  std::string soname;
  std::vector<std::string> needed;
  std::set<std::string> defined;    // defined global/weak dynamic symbols (mangled)
  std::set<std::string> undefined;  // undefined dynamic symbols
};

// Empty info (and a gtest failure) when the file cannot be read.
DynamicInfo ReadDynamicInfo(const std::string& path);

// Names of the functions a header set declares with TF_CAPI_EXPORT.
std::set<std::string> ExportedFunctionsDeclaredIn(const std::string& include_dir);

}  // namespace conformance::core::testing
