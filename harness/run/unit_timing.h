#pragma once
// Real time for checks that do not time themselves (the load tier's checks all report 0): the
// unit's run is wrapped so that a result arriving with seconds == 0 gets the time since the
// unit's previous result (or its start). The unit's wall time is thus split across its checks
// in the order they report, and the times of a unit's results add up to its run time.
#include "model/test_unit.h"

namespace conformance {

TestUnit WithCheckTiming(TestUnit unit);

}  // namespace conformance
