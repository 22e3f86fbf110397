#pragma once
// Our stricter StreamExecutor checks (origin `stricter`): a second session with poisoned
// pre-fills, so values the plugin never writes are told apart from values it writes.
#include <string>
#include <vector>

#include "validate/check_log.h"
#include "validate/profile.h"
#include "validate/se_session.h"

namespace conformance::validate {

std::vector<std::string> SeStrictCheckIds();
void RunSeStrictChecks(SeInitPluginFn init, const Profile& profile, CheckLog& log);

}  // namespace conformance::validate
