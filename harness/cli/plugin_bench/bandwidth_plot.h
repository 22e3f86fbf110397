#pragma once
// --plot FILE.svg: the copy bandwidth chart of this run, drawn by the same code as the HTML
// report's (report/svg_chart.h) from the figures the comparison table shows.
#include <ostream>
#include <string>
#include <vector>

#include "case_registry.h"
#include "report/bandwidth_chart.h"
#include "result_collector.h"

namespace conformance::bench {

// Every copy bandwidth figure of the run (benchmarks without a value are left out).
std::vector<BandwidthSample> BandwidthSamples(const std::vector<CaseInfo>& cases,
                                              const FigureSource& figures);

// Writes the chart like a report file (report/report_file.h: links and devices written
// through). False, after saying why on `err`, when there is nothing to draw or it could not be
// written.
bool WriteBandwidthPlot(const std::string& path, const std::vector<BandwidthSample>& samples,
                        std::ostream& out, std::ostream& err);

}  // namespace conformance::bench
