#include "report/html_tables.h"

#include <algorithm>
#include <vector>

#include "report/html_checks.h"
#include "report/html_text.h"

namespace conformance {
namespace {

using nlohmann::ordered_json;

// "not_registered" -> "not registered".
std::string Spaced(std::string text) {
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

// One line per op: "all 6 pass" when every property has one outcome, else each property.
void AppendProperties(std::string& html, const ordered_json& properties) {
  std::string first_outcome;
  bool uniform = true;
  for (const auto& [name, outcome] : properties.items()) {
    const std::string text = JsonDisplayText(outcome);
    if (first_outcome.empty()) first_outcome = text;
    uniform = uniform && text == first_outcome;
  }
  if (properties.empty()) return;
  if (uniform) {
    html += "all " + std::to_string(properties.size()) + " <span class=\"badge small " +
            HtmlAttribute(first_outcome) + "\">" + Html(first_outcome) + "</span>";
    return;
  }
  bool first = true;
  for (const auto& [name, outcome] : properties.items()) {
    const std::string text = JsonDisplayText(outcome);
    html += std::string(first ? "" : " ") + Html(name) + " <span class=\"badge small " +
            HtmlAttribute(text) + "\">" + Html(text) + "</span>";
    first = false;
  }
}

// The models tier's rows: per model × dtype its state and which of its ops the plugin has.
void AppendModelCoverage(std::string& html, const ordered_json& models) {
  html +=
      "<h3>Models</h3><table id=\"model-coverage-table\"><thead><tr><th>model</th>"
      "<th>dtype</th><th>state</th><th>ops the plugin has</th></tr></thead><tbody>\n";
  for (const ordered_json& row : models) {
    if (!row.is_object()) continue;
    const std::string state = FieldText(row, "state");
    html += "<tr><td class=\"id\">" + Html(FieldText(row, "model")) + "</td><td>" +
            Html(FieldText(row, "dtype")) + "</td><td class=\"cell " + HtmlAttribute(state) +
            "\"><a href=\"#" + HtmlAttribute(CheckAnchor(FieldText(row, "check"))) + "\">" +
            Html(Spaced(state)) + "</a></td><td>";
    bool first = true;
    if (row.contains("ops") && row.at("ops").is_array()) {
      for (const ordered_json& op : row.at("ops")) {
        const bool registered = op.value("registered", false);
        html += std::string(first ? "" : ", ") +
                (registered ? Html(FieldText(op, "op"))
                            : "<span class=\"badge small fail\">" + Html(FieldText(op, "op")) +
                                  " missing</span>");
        first = false;
      }
    }
    html += "</td></tr>\n";
  }
  html += "</tbody></table>\n";
}

// How many of the cells the plugin registers a check judged, and a table of the others with the
// reason (a kernel no scenario covers is judged by nothing without --tensorflow).
void AppendRegisteredKernels(std::string& html, const ordered_json& registered) {
  if (!registered.is_object()) return;
  html += "<p class=\"meta\" id=\"registered-kernels\">Judged " +
          Html(FieldText(registered, "judged")) + " of " + Html(FieldText(registered, "cells")) +
          " registered (op, dtype) cells</p>";
  if (!registered.contains("unjudged") || !registered.at("unjudged").is_array() ||
      registered.at("unjudged").empty()) {
    return;
  }
  html +=
      "<h3>Registered kernels no check judged</h3><table id=\"unjudged-kernels-table\"><thead>"
      "<tr><th>op</th><th>dtype</th><th>why not</th></tr></thead><tbody>\n";
  for (const ordered_json& cell : registered.at("unjudged")) {
    html += "<tr><td class=\"id\">" + Html(FieldText(cell, "op")) + "</td><td>" +
            Html(FieldText(cell, "dtype")) + "</td><td>" + Html(FieldText(cell, "reason")) +
            "</td></tr>\n";
  }
  html += "</tbody></table>\n";
}

}  // namespace

void AppendOpCoverage(std::string& html, const ordered_json& report) {
  if (!report.contains("op_coverage")) return;
  const ordered_json& coverage = report.at("op_coverage");
  if (!coverage.is_object() || !coverage.contains("ops") || !coverage.contains("dtypes")) return;
  html += "<section id=\"op-coverage\"><h2>Op coverage</h2><p class=\"meta\">";
  if (coverage.contains("cell_counts") && coverage.at("cell_counts").is_object() &&
      !coverage.at("ops").empty()) {
    bool first = true;
    for (const auto& [state, count] : coverage.at("cell_counts").items()) {
      html += (first ? "" : ", ") + Html(JsonDisplayText(count)) + " " + Html(Spaced(state));
      first = false;
    }
    html += " (op &#215; dtype cells)";
  }
  html += "</p>";
  if (coverage.contains("registered_kernels"))
    AppendRegisteredKernels(html, coverage.at("registered_kernels"));
  const bool has_models = coverage.contains("models") && coverage.at("models").is_array() &&
                          !coverage.at("models").empty();
  if (coverage.at("ops").empty()) {
    if (has_models) AppendModelCoverage(html, coverage.at("models"));
    html += "</section>\n";
    return;
  }
  html += "<table id=\"op-coverage-table\"><thead><tr><th>op</th>";
  for (const auto& dtype : coverage.at("dtypes"))
    html += "<th>" + Html(JsonDisplayText(dtype)) + "</th>";
  html += "<th>properties</th></tr></thead><tbody>\n";
  for (const ordered_json& op : coverage.at("ops")) {
    html += "<tr><td class=\"id\">" + Html(FieldText(op, "op")) + "</td>";
    const ordered_json& cells = op.contains("cells") ? op.at("cells") : ordered_json::object();
    for (const auto& dtype_value : coverage.at("dtypes")) {
      const std::string dtype = JsonDisplayText(dtype_value);
      if (!cells.is_object() || !cells.contains(dtype)) {
        html += "<td></td>";
        continue;
      }
      const ordered_json& cell = cells.at(dtype);
      const std::string state = FieldText(cell, "state");
      html += "<td class=\"cell " + HtmlAttribute(state) + "\" title=\"" +
              HtmlAttribute(FieldText(cell, "checks")) + "\">";
      // A link to the first case check, so a failed cell leads to its message.
      if (cell.contains("checks") && cell.at("checks").is_array() && !cell.at("checks").empty()) {
        html += "<a href=\"#" + HtmlAttribute(CheckAnchor(JsonDisplayText(cell.at("checks")[0]))) +
                "\">" + Html(Spaced(state)) + "</a>";
      } else {
        html += Html(Spaced(state));
      }
      html += "</td>";
    }
    html += "<td>";
    if (op.contains("properties") && op.at("properties").is_object()) {
      AppendProperties(html, op.at("properties"));
    }
    html += "</td></tr>\n";
  }
  html += "</tbody></table>\n";
  if (has_models) AppendModelCoverage(html, coverage.at("models"));
  html += "</section>\n";
}

void AppendMatrix(std::string& html, const ordered_json& report) {
  if (!report.contains("matrix")) return;
  const ordered_json& matrix = report.at("matrix");
  if (!matrix.is_object() || !matrix.contains("rows") || !matrix.at("rows").is_array()) return;
  const ordered_json& rows = matrix.at("rows");
  std::vector<std::string> columns;
  for (const ordered_json& row : rows) {
    if (!row.is_object()) continue;
    for (const auto& [key, value] : row.items()) {
      if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
    }
  }
  html += "<section id=\"matrix\"><h2>Generation matrix</h2><table id=\"matrix-table\"><thead><tr>";
  for (const std::string& column : columns) html += "<th>" + Html(column) + "</th>";
  html += "</tr></thead><tbody>\n";
  for (const ordered_json& row : rows) {
    html += "<tr>";
    for (const std::string& column : columns) {
      html += "<td>" + Html(FieldText(row, column.c_str())) + "</td>";
    }
    html += "</tr>\n";
  }
  html += "</tbody></table></section>\n";
}

}  // namespace conformance
