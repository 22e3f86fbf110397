// The HTML report rendered from the JSON report's document: escaping of everything the plugin
// controls, the filter markup the script relies on, the sections and their order.
#include "report/html_report.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "report/json_report.h"
#include "sample_report.h"

namespace conformance {
namespace {

using nlohmann::ordered_json;

constexpr const char* kHostile = "<script>alert(1)</script></td><td id=\"evil\">";

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

RunReport HostileReport() {
  RunReport report = testing::SampleReport();
  CheckResult result;
  result.id = "runtime.memcpy.dtoh";
  result.tier = "runtime";
  result.outcome = Outcome::kFail;
  result.message = kHostile;
  result.plugin_output = std::string("stderr: ") + kHostile + "\n";
  result.details = {{"failing_call", "memcpy_dtoh"}, {"problem", kHostile}};
  report.results.push_back(result);
  return report;
}

std::string Render(const RunReport& report, const HtmlExtras& extras = {}) {
  return RenderHtmlReport(RunReportToJson(report, testing::SampleLookup()), testing::SampleLookup(),
                          extras);
}

TEST(HtmlReportTest, PluginMarkupStaysText) {
  const std::string html = Render(HostileReport());
  EXPECT_EQ(Count(html, "<script"), 1u) << "only the report's own script";
  EXPECT_EQ(Count(html, "</script>"), 1u);
  EXPECT_EQ(html.find("id=\"evil\""), std::string::npos);
  EXPECT_EQ(html.find("</td><td id="), std::string::npos);
  // Shown as text: in the message, the captured output and the root cause's problem.
  EXPECT_GE(Count(html, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/td&gt;"), 3u);
  // The sample's hostile bytes: control characters and invalid UTF-8 visible, not raw.
  EXPECT_EQ(html.find('\x1b'), std::string::npos);
  EXPECT_EQ(html.find('\xff'), std::string::npos);
  EXPECT_NE(html.find("lib&lt;weird&gt;&amp;&quot;plugin&quot;.so"), std::string::npos);
}

TEST(HtmlReportTest, SelfContainedWithContentSecurityPolicy) {
  const std::string html = Render(HostileReport());
  EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                      "&apos;none&apos;; style-src &apos;unsafe-inline&apos;; script-src "
                      "&apos;unsafe-inline&apos;; img-src data:\">"),
            std::string::npos);
  for (const char* request : {" src=", "<link", "@import", "url(", "href=\"http", "<iframe"}) {
    EXPECT_EQ(html.find(request), std::string::npos) << request;
  }
}

TEST(HtmlReportTest, EveryResultHasAFilterableRow) {
  const RunReport report = HostileReport();
  const std::string html = Render(report);
  for (const CheckResult& result : report.results) {
    const std::string tier =
        result.tier.empty() ? result.id.substr(0, result.id.find('.')) : result.tier;
    const std::string row = "<tr class=\"check\" id=\"check-" + result.id + "\" data-outcome=\"" +
                            std::string(ToString(result.outcome)) + "\" data-tier=\"" + tier +
                            "\">";
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
  EXPECT_EQ(Count(html, "<tr class=\"check\""), report.results.size());
}

TEST(HtmlReportTest, FiltersOfferEveryOutcomeAndTierPresent) {
  const std::string html = Render(HostileReport());
  // The sample has each outcome; each gets a checked checkbox with its count.
  EXPECT_NE(html.find("<input type=\"checkbox\" name=\"outcome\" value=\"fail\" checked> <span "
                      "class=\"badge fail\">fail</span> 2</label>"),
            std::string::npos);
  for (const char* outcome : {"pass", "warning", "not_supported", "crash", "timeout", "waived",
                              "unexpected_pass", "skipped"}) {
    EXPECT_NE(html.find("name=\"outcome\" value=\"" + std::string(outcome) + "\""),
              std::string::npos)
        << outcome;
  }
  EXPECT_NE(html.find("<select id=\"tier-filter\"><option value=\"\">all tiers</option>"),
            std::string::npos);
  for (const char* tier : {"load", "runtime", "kernel", "single"}) {
    EXPECT_NE(html.find("<option value=\"" + std::string(tier) + "\">"), std::string::npos) << tier;
  }
  EXPECT_NE(html.find("id=\"visible-count\""), std::string::npos);
  EXPECT_NE(html.find("id=\"show-problems\""), std::string::npos);
}

TEST(HtmlReportTest, VerdictRootCausesFirstThenChecksWithCatalogueText) {
  const std::string html = Render(HostileReport());
  const std::size_t verdict = html.find("<strong>NOT CONFORMANT</strong>");
  const std::size_t causes = html.find("<section id=\"root-causes\">");
  const std::size_t checks = html.find("<section id=\"checks\">");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(causes, std::string::npos);
  ASSERT_NE(checks, std::string::npos);
  EXPECT_LT(verdict, causes);
  EXPECT_LT(causes, checks);
  // The crash and the timeout share a root cause; it links both checks.
  EXPECT_NE(html.find("<code>memcpy_htod</code>: crashed"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#check-runtime.stream.sync\">"), std::string::npos);
  // A failure that blames no callback is its own root cause, in the compact list.
  EXPECT_NE(html.find("<li><a href=\"#check-load.se.platform.name_regex\">load.se.platform."
                      "name_regex</a>: Platform name"),
            std::string::npos);
  // Catalogue text, with the consequence for stricter checks only.
  EXPECT_NE(html.find("<dt>rule</dt><dd>names match [A-Z][A-Z_]*</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>how to fix</dt><dd>fix &amp; retry</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>seed</dt><dd>42</dd>"), std::string::npos);
  EXPECT_NE(html.find("<dt>waiver</dt><dd>vendor ticket &lt;1234&gt;</dd>"), std::string::npos);
  EXPECT_NE(html.find("<pre class=\"plugin-output\">plugin: init &lt;dev0&gt; &amp; go"),
            std::string::npos);
  EXPECT_NE(html.find("<pre class=\"backtrace\">#0 memcpy_htod"), std::string::npos);
}

TEST(HtmlReportTest, ConformantVerdictAndTensorFlowLine) {
  RunReport report;
  report.plugin_path = "/p.so";
  CheckResult pass;
  pass.id = "load.library.dlopen";
  pass.tier = "load";
  report.results.push_back(pass);
  report.tiers = {"load"};
  report.tensorflow_verdict = nlohmann::json{{"summary", "loads the plugin"}};
  const std::string html = Render(report);
  EXPECT_NE(html.find("class=\"verdict conformant\"><strong>CONFORMANT</strong>"),
            std::string::npos);
  EXPECT_NE(html.find("<b>TensorFlow:</b> loads the plugin"), std::string::npos);
  EXPECT_EQ(html.find("id=\"root-causes\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"op-coverage\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"matrix\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"bandwidth\""), std::string::npos);
}

TEST(HtmlReportTest, OpCoverageTableFromTheJson) {
  const std::string html = Render(HostileReport());  // the sample has kernel.AddV2 results
  ASSERT_NE(html.find("<table id=\"op-coverage-table\">"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"id\">AddV2</td>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#check-kernel.AddV2.float.broadcast\">"), std::string::npos);
}

// Issue 29 items 9 and 18: a kernel callback's root cause names its kernel; the registered cells
// no check judged are a table with the reason.
TEST(HtmlReportTest, KernelRootCausesAndUnjudgedRegisteredKernels) {
  const std::string html = Render(testing::KernelSampleReport());
  EXPECT_NE(html.find("<h3><code>compute_func</code> (<code>Relu</code>): wrong values</h3>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<h3><code>deallocate</code>: freed while queued work still reads it</h3>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("Judged 4 of 6 registered (op, dtype) cells"), std::string::npos) << html;
  EXPECT_NE(html.find("<tr><td class=\"id\">Floor</td><td>double</td><td>no check ran it: no "
                      "built-in scenario covers it, and no case is generated for it ("),
            std::string::npos)
      << html;
}

TEST(HtmlReportTest, MatrixRowsRenderedGenerically) {
  ordered_json document = RunReportToJson(HostileReport(), testing::SampleLookup());
  document["matrix"] = {
      {"rows",
       {{{"profile", "tf2.10"}, {"verdict", "loads"}, {"tiers", {"load", "x"}}},
        {{"profile", "tf2.7"}, {"<b>", kHostile}, {"counts", {{"pass", 3}, {"fail", 1}}}}}}};
  const std::string html = RenderHtmlReport(document, testing::SampleLookup());
  ASSERT_NE(html.find("<table id=\"matrix-table\">"), std::string::npos);
  // Columns in first-seen order; missing cells empty; arrays and objects flattened.
  EXPECT_NE(html.find("<tr><th>profile</th><th>verdict</th><th>tiers</th><th>&lt;b&gt;</th>"
                      "<th>counts</th></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><td>tf2.10</td><td>loads</td><td>load, x</td><td></td><td></td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>pass=3, fail=1</td>"), std::string::npos);
  EXPECT_EQ(html.find("id=\"evil\""), std::string::npos);
}

TEST(HtmlReportTest, BandwidthChartEmbeddedWhenGiven) {
  const std::string html = Render(HostileReport(), HtmlExtras{"<svg id=\"chart\"></svg>"});
  const std::size_t chart = html.find("<section id=\"bandwidth\">");
  ASSERT_NE(chart, std::string::npos);
  EXPECT_LT(chart, html.find("<section id=\"checks\">"));
  EXPECT_NE(html.find("<svg id=\"chart\"></svg>"), std::string::npos);
}

}  // namespace
}  // namespace conformance
