// Writes sample reports for the schema tests run by CTest (xmllint for JUnit, a JSON
// Schema validator for JSON): the full sample, an empty run, and deliberately invalid
// variants that the validators must reject (proof that validation is not vacuous).
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/atomic_file.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "sample_report.h"

int main(int argc, char** argv) {
  using namespace conformance;
  if (argc != 2) {
    std::cerr << "usage: write_report_samples OUTPUT_DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const RunReport sample = testing::SampleReport();
    RunReport minimal;
    minimal.tool_version = "0.1.0";
    minimal.started_at = "2026-11-21T10:42:01Z";

    WriteFileAtomically(dir + "/sample.json", RenderJsonReport(sample, testing::SampleLookup()));
    WriteFileAtomically(dir + "/minimal.json", RenderJsonReport(minimal));
    WriteFileAtomically(dir + "/sample.xml", RenderJUnitReport(sample, testing::SampleLookup()));
    WriteFileAtomically(dir + "/minimal.xml", RenderJUnitReport(minimal));
    WriteFileAtomically(dir + "/kernels.json", RenderJsonReport(testing::KernelSampleReport()));
    WriteFileAtomically(dir + "/kernels.xml", RenderJUnitReport(testing::KernelSampleReport()));

    nlohmann::json invalid = RunReportToJson(sample);
    invalid["results"][0]["outcome"] = "passed";  // not an outcome
    WriteFileAtomically(dir + "/invalid.json",
                        invalid.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    std::string invalid_xml = RenderJUnitReport(sample);
    invalid_xml.replace(invalid_xml.find(" tests=\""), 8, " tests=\"-");  // negative count
    WriteFileAtomically(dir + "/invalid.xml", invalid_xml);
  } catch (const std::exception& error) {
    std::cerr << "write_report_samples: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
