#include "report/html_report.h"

#include <cstdio>

#include "installed_tensorflow/installed_verdict.h"
#include "report/html_assets.h"
#include "report/html_checks.h"
#include "report/html_tables.h"
#include "report/html_text.h"

namespace conformance {
namespace {

using nlohmann::ordered_json;

void AppendHead(std::string& html, const ordered_json& report) {
  html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  html += "<meta http-equiv=\"Content-Security-Policy\" content=\"" +
          HtmlAttribute(kHtmlReportContentSecurityPolicy) + "\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>plugin_conformance: " + Html(FieldText(report, "plugin")) + "</title>\n";
  html += "<style>" + std::string(kHtmlReportStyle) + "</style></head>\n<body>\n";
}

void AppendRunSettings(std::string& html, const ordered_json& report) {
  html += "<h1>plugin_conformance report</h1>\n<p class=\"meta\">plugin <code>" +
          Html(FieldText(report, "plugin")) + "</code>";
  if (const std::string co = FieldText(report, "co_loaded_plugins"); !co.empty()) {
    html += ", co-loaded <code>" + Html(co) + "</code>";
  }
  html += "</p>\n<p class=\"meta\">";
  std::string settings;
  const auto setting = [&](const char* label, const std::string& value) {
    if (value.empty()) return;
    if (!settings.empty()) settings += " &#183; ";
    settings += Html(label) + " <b>" + Html(value) + "</b>";
  };
  if (report.contains("tool"))
    setting("plugin_conformance", FieldText(report.at("tool"), "version"));
  setting("profile", FieldText(report, "profile"));
  setting("header generation", FieldText(report, "header_generation"));
  setting("tiers", FieldText(report, "tiers"));
  setting("filter", FieldText(report, "filter"));
  setting("seed", FieldText(report, "seed"));
  setting("repeat", FieldText(report, "repeat"));
  if (report.contains("shard")) {
    setting("shard", FieldText(report.at("shard"), "index") + " of " +
                         FieldText(report.at("shard"), "total"));
  }
  setting("started", FieldText(report, "started_at"));
  if (const auto wall = report.find("wall_seconds"); wall != report.end() && wall->is_number()) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", wall->get<double>());
    setting("wall time", seconds);
  }
  if (report.contains("host")) {
    const ordered_json& host = report.at("host");
    setting("host", FieldText(host, "node") + " (" + FieldText(host, "system") + " " +
                        FieldText(host, "release") + ", " + FieldText(host, "machine") + ")");
  }
  html += settings;
  html += "</p>\n";
}

// Links to the sections this report has.
void AppendNavigation(std::string& html, const ordered_json& report, const HtmlExtras& extras) {
  html += "<nav class=\"sections\">";
  if (report.contains("root_causes") && !report.at("root_causes").empty()) {
    html += "<a href=\"#root-causes\">root causes</a>";
  }
  if (report.contains("matrix")) html += "<a href=\"#matrix\">generation matrix</a>";
  if (report.contains("op_coverage")) html += "<a href=\"#op-coverage\">op coverage</a>";
  if (!extras.bandwidth_svg.empty()) html += "<a href=\"#bandwidth\">copy bandwidth</a>";
  html += "<a href=\"#checks\">checks</a></nav>\n";
}

void AppendVerdict(std::string& html, const ordered_json& report) {
  const bool conformant = report.value("conformant", false);
  const bool no_device = report.contains("no_device");
  html += std::string("<div id=\"verdict\" class=\"verdict ") +
          (conformant ? (no_device ? "conformant\"><strong>CONFORMANT IN THE DEVICE-FREE TIERS "
                                     "ONLY</strong>"
                                   : "conformant\"><strong>CONFORMANT</strong>")
                      : (no_device ? "not-conformant\"><strong>NO DEVICE: DEVICE TIERS NOT "
                                     "RUN</strong>"
                                   : "not-conformant\"><strong>NOT CONFORMANT</strong>"));
  html += Html(FieldText(report, "not_conformant_reason"));
  if (no_device) {
    html += "<p id=\"no-device\"><b>Device tiers not run:</b> " +
            Html(FieldText(report.at("no_device"), "reason")) + "</p>";
  }
  if (const std::string failure = FieldText(report, "load_failure"); !failure.empty()) {
    html += "<p>load failure: " + Html(failure) + "</p>";
  }
  if (report.contains("tensorflow_verdict")) {
    const ordered_json& verdict = report.at("tensorflow_verdict");
    html +=
        "<p id=\"tensorflow-verdict\"><b>TensorFlow:</b> " + Html(FieldText(verdict, "summary"));
    if (const std::string check = FieldText(verdict, "check"); !check.empty()) {
      html += " (<a href=\"#" + HtmlAttribute(CheckAnchor(check)) + "\">" + Html(check) + "</a>)";
    }
    html += "</p>";
  }
  if (report.contains("installed_tensorflow")) {
    const ordered_json& installed = report.at("installed_tensorflow");
    html += "<p id=\"installed-tensorflow\"><b>TensorFlow " +
            Html(FieldText(installed, "release")) + " (installed):</b> " +
            Html(FieldText(installed, "summary")) + "</p>";
    if (installed.contains("kernels")) {
      html += "<p id=\"installed-tensorflow-kernels\"><b>TensorFlow " +
              Html(FieldText(installed, "release")) + " (installed):</b> " +
              Html(tensorflow_driver::InstalledKernelsSummary(installed.at("kernels"))) + "</p>";
    }
    if (installed.contains("models")) {
      html += "<p id=\"installed-tensorflow-models\"><b>TensorFlow " +
              Html(FieldText(installed, "release")) + " (installed):</b> " +
              Html(tensorflow_driver::InstalledModelsSummary(installed.at("models"))) + "</p>";
    }
    if (const std::string finding = FieldText(installed, "finding"); !finding.empty()) {
      html +=
          "<p id=\"installed-tensorflow-finding\" class=\"finding\"><b>Finding against the "
          "suite:</b> " +
          Html(finding) + "</p>";
    }
  }
  if (report.contains("counts") && report.at("counts").is_object()) {
    html += "<div class=\"counts\">" + Html(FieldText(report, "total")) + " results: ";
    for (const auto& [outcome, count] : report.at("counts").items()) {
      if (count == 0) continue;
      html += "<span><span class=\"badge " + HtmlAttribute(outcome) + "\">" + Html(outcome) +
              "</span> " + Html(JsonDisplayText(count)) + "</span>";
    }
    html += "</div>";
  }
  html += "</div>\n";
}

void AppendCheckLinks(std::string& html, const ordered_json& checks) {
  html += "<p class=\"meta\">" + std::to_string(checks.size()) + " checks affected:</p><ul>";
  for (const auto& check : checks) {
    const std::string id = JsonDisplayText(check);
    html += "<li><a href=\"#" + HtmlAttribute(CheckAnchor(id)) + "\">" + Html(id) + "</a></li>";
  }
  html += "</ul>";
}

// Failures that name their callback and problem are grouped by the run layer; the others are
// each their own root cause, listed compactly after the groups.
void AppendRootCauses(std::string& html, const ordered_json& report) {
  if (!report.contains("root_causes") || !report.at("root_causes").is_array() ||
      report.at("root_causes").empty()) {
    return;
  }
  html += "<section id=\"root-causes\"><h2>Root causes</h2>\n";
  std::string unattributed;
  for (const ordered_json& cause : report.at("root_causes")) {
    const ordered_json checks = cause.contains("checks") && cause.at("checks").is_array()
                                    ? cause.at("checks")
                                    : ordered_json::array();
    const std::string call = FieldText(cause, "call");
    if (call.empty()) {
      const std::string id = checks.empty() ? "" : JsonDisplayText(checks[0]);
      unattributed += "<li><a href=\"#" + HtmlAttribute(CheckAnchor(id)) + "\">" + Html(id) +
                      "</a>: " + Html(FieldText(cause, "message")) + "</li>";
      continue;
    }
    // A kernel callback's root cause names its op: two kernels wrong are two defects.
    const std::string kernel = FieldText(cause, "kernel");
    html += "<div class=\"root-cause\"><h3><code>" + Html(call) + "</code>" +
            (kernel.empty() ? "" : " (<code>" + Html(kernel) + "</code>)") + ": " +
            Html(FieldText(cause, "problem")) + "</h3><div>" + Html(FieldText(cause, "message")) +
            "</div>";
    AppendCheckLinks(html, checks);
    html += "</div>\n";
  }
  if (!unattributed.empty()) {
    html += "<div class=\"unattributed\"><h3>Failures that blame no callback</h3><ul>" +
            unattributed + "</ul></div>\n";
  }
  html += "</section>\n";
}

void AppendWarnings(std::string& html, const ordered_json& report) {
  if (!report.contains("warnings") || !report.at("warnings").is_array() ||
      report.at("warnings").empty()) {
    return;
  }
  html += "<section id=\"run-warnings\"><h2>Run warnings</h2><ul>";
  for (const auto& warning : report.at("warnings")) {
    html += "<li>" + Html(JsonDisplayText(warning)) + "</li>";
  }
  html += "</ul></section>\n";
}

// The vendor's --precision declarations: which tolerance the op's value checks were held to.
void AppendDeclaredPrecision(std::string& html, const ordered_json& report) {
  const auto declared = report.find("declared_precision");
  if (declared == report.end() || !declared->is_array() || declared->empty()) return;
  html +=
      "<section id=\"declared-precision\"><h2>Declared precision</h2><table><tr><th>op</th>"
      "<th>dtype</th><th>scenario</th><th>rtol</th><th>atol</th><th>ulp</th><th>reason</"
      "th><th>declared at</th>"
      "</tr>";
  for (const auto& d : *declared) {
    html += "<tr>";
    for (const char* key : {"op", "dtype", "scenario", "rtol", "atol", "ulp", "reason", "source"})
      html += "<td>" + Html(FieldText(d, key)) + "</td>";
    html += "</tr>";
  }
  html += "</table></section>\n";
}

void AppendBandwidth(std::string& html, const HtmlExtras& extras) {
  if (extras.bandwidth_svg.empty()) return;
  html +=
      "<section id=\"bandwidth\"><h2>Copy bandwidth</h2><p class=\"meta\">From plugin_bench: "
      "median bandwidth per copy size, candidate against the reference plugin and plain host "
      "memcpy measured in the same run.</p><div class=\"chart\">" +
      extras.bandwidth_svg + "</div></section>\n";
}

}  // namespace

std::string RenderHtmlReport(const ordered_json& report, const CheckLookup& lookup,
                             const HtmlExtras& extras) {
  std::string html;
  html.reserve(std::size_t{256} * 1024);
  AppendHead(html, report);
  AppendRunSettings(html, report);
  AppendVerdict(html, report);
  AppendNavigation(html, report, extras);
  AppendRootCauses(html, report);
  AppendWarnings(html, report);
  AppendMatrix(html, report);
  AppendOpCoverage(html, report);
  AppendDeclaredPrecision(html, report);
  AppendBandwidth(html, extras);
  AppendCheckSection(html, report, lookup);
  html += "<script>" + std::string(kHtmlReportScript) + "</script>\n</body></html>\n";
  return html;
}

}  // namespace conformance
