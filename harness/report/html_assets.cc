#include "report/html_assets.h"

namespace conformance {

const std::string_view kHtmlReportStyle = R"css(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 24px 40px;
       color: #1d1d1f; background: #fafafa; }
h1 { font-size: 22px; margin: 18px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
code, pre, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
pre { background: #f1f1f1; border: 1px solid #ddd; padding: 6px 8px; white-space: pre-wrap;
      word-break: break-word; margin: 4px 0; max-height: 24em; overflow: auto; }
.meta { color: #555; margin: 0; }
.verdict { border-radius: 6px; padding: 12px 16px; margin: 14px 0; font-size: 16px; }
.verdict strong { font-size: 22px; letter-spacing: .5px; margin-right: 10px; }
.verdict.conformant { background: #e3f4e6; border: 2px solid #2e7d32; }
.verdict.not-conformant { background: #fdecea; border: 2px solid #c62828; }
.verdict p { margin: 6px 0 0; }
.counts span { display: inline-block; margin: 6px 8px 0 0; }
.badge { display: inline-block; min-width: 5.6em; text-align: center; border-radius: 3px;
         padding: 1px 6px; font-size: 12px; font-weight: 600; color: #fff; background: #777; }
.badge.pass { background: #2e7d32; } .badge.fail, .badge.crash, .badge.timeout,
.badge.unexpected_pass, .badge.flaky { background: #c62828; } .badge.warning { background: #b26a00; }
.badge.small { min-width: 0; font-size: 11px; }
.badge.waived { background: #6a4c93; } .badge.skipped, .badge.not_supported { background: #777; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; position: sticky; top: 0; }
tr.check td.id { white-space: nowrap; }
.root-cause { background: #fff; border: 1px solid #e0b4b4; border-left: 5px solid #c62828;
              padding: 8px 12px; margin: 8px 0; border-radius: 4px; }
.root-cause h3 { margin: 0 0 4px; font-size: 15px; }
.root-cause ul { margin: 4px 0 0; padding-left: 20px; }
.unattributed { background: #fff; border: 1px solid #ddd; padding: 4px 12px 8px; }
.unattributed li { margin: 3px 0; }
nav.sections a { margin-right: 14px; }
.filters { background: #fff; border: 1px solid #ddd; padding: 8px 12px; margin: 8px 0;
           border-radius: 4px; }
.filters fieldset { border: 0; display: inline; padding: 0; margin: 0 16px 0 0; }
.filters label { margin-right: 10px; white-space: nowrap; }
#visible-count { color: #555; margin-left: 8px; }
details > summary { cursor: pointer; color: #1f5fa8; }
dl.catalogue { margin: 4px 0; display: grid; grid-template-columns: max-content 1fr;
               gap: 2px 10px; }
dl.catalogue dt { font-weight: 600; color: #444; }
dl.catalogue dd { margin: 0; }
.origin { font-size: 11px; color: #555; border: 1px solid #bbb; border-radius: 3px;
          padding: 0 4px; margin-left: 6px; }
td.cell { white-space: nowrap; }
td.cell.passed { background: #e3f4e6; } td.cell.generated { background: #eef8e0; } td.cell.failed { background: #fdecea; }
td.cell.waived { background: #efe7f7; } td.cell.skipped { background: #f3f3f3; }
td.cell.not_registered { background: #fff; color: #999; }
.chart { overflow-x: auto; background: #fff; border: 1px solid #ddd; padding: 6px; }
)css";

const std::string_view kHtmlReportScript = R"js(
(function () {
  'use strict';
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[name="outcome"]'));
  var tier = document.getElementById('tier-filter');
  var count = document.getElementById('visible-count');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.check'));
  function apply() {
    var wanted = {};
    boxes.forEach(function (box) { wanted[box.value] = box.checked; });
    var visible = 0;
    rows.forEach(function (row) {
      var show = wanted[row.getAttribute('data-outcome')] === true &&
                 (tier.value === '' || row.getAttribute('data-tier') === tier.value);
      row.hidden = !show;
      if (show) visible++;
    });
    count.textContent = visible + ' of ' + rows.length + ' checks shown';
  }
  function setAll(predicate) {
    boxes.forEach(function (box) { box.checked = predicate(box.value); });
    apply();
  }
  var good = { pass: true, not_supported: true, skipped: true, waived: true };
  document.getElementById('show-problems').addEventListener('click', function () {
    setAll(function (outcome) { return !good[outcome]; });
  });
  document.getElementById('show-all').addEventListener('click', function () {
    setAll(function () { return true; });
  });
  boxes.forEach(function (box) { box.addEventListener('change', apply); });
  tier.addEventListener('change', apply);
  apply();
})();
)js";

}  // namespace conformance
