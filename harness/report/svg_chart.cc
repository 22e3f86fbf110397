#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "report/xml_escape.h"

namespace conformance {
namespace {

// Panel geometry, in SVG user units (pixels at 100 % zoom).
constexpr int kPanelWidth = 340;
constexpr int kPanelHeight = 250;
constexpr int kLeft = 58;    // y tick labels and the y axis label
constexpr int kRight = 28;   // room for the last size label
constexpr int kTop = 30;     // the panel title
constexpr int kBottom = 48;  // x tick labels and the x axis label
constexpr int kLegendHeight = 30;
constexpr int kMaxColumns = 3;
constexpr int kYTicks = 5;

struct Style {
  const char* colour;
  const char* dash;  // stroke-dasharray, "" for solid
};

Style StyleOf(BandwidthSeries series) {
  switch (series) {
    case BandwidthSeries::kCandidate: return {"#c0392b", ""};
    case BandwidthSeries::kReference: return {"#1f5fa8", ""};
    case BandwidthSeries::kHostMemcpy: return {"#6b6b6b", "6 4"};
  }
  return {"#000", ""};
}

std::string Number(double value, const char* format = "%.4g") {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string SizeText(std::uint64_t bytes) {
  if (bytes >= (1u << 30) && bytes % (1u << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

// The smallest 1, 2 or 5 times a power of ten that makes kYTicks steps reach `top`.
double NiceStep(double top) {
  const double raw = top / kYTicks;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * power >= raw) return factor * power;
  }
  return 10 * power;
}

void Legend(std::ostringstream& svg, const std::set<BandwidthSeries>& present) {
  int x = kLeft;
  svg << "<g class=\"legend\" font-size=\"13\">";
  for (BandwidthSeries series : kAllBandwidthSeries) {
    if (!present.contains(series)) continue;
    const Style style = StyleOf(series);
    svg << "<line x1=\"" << x << "\" y1=\"15\" x2=\"" << x + 28 << "\" y2=\"15\" stroke=\""
        << style.colour << "\" stroke-width=\"2.5\" stroke-dasharray=\"" << style.dash << "\"/>"
        << "<circle cx=\"" << x + 14 << "\" cy=\"15\" r=\"3.5\" fill=\"" << style.colour << "\"/>"
        << "<text x=\"" << x + 34 << "\" y=\"19\">" << Label(series) << "</text>";
    x += 60 + 8 * static_cast<int>(Label(series).size());
  }
  svg << "</g>\n";
}

void Panel(std::ostringstream& svg, const ChartPanel& panel, int origin_x, int origin_y) {
  std::set<std::uint64_t> sizes;
  double top = 0;
  for (const ChartLine& line : panel.lines) {
    for (const ChartPoint& point : line.points) {
      sizes.insert(point.bytes);
      top = std::max(top, point.gigabytes_per_second);
    }
  }
  if (sizes.empty()) return;
  const double step = NiceStep(top > 0 ? top * 1.05 : 1.0);
  const double y_max = step * kYTicks;
  double x_min = std::log2(static_cast<double>(*sizes.begin()));
  double x_max = std::log2(static_cast<double>(*sizes.rbegin()));
  if (x_max - x_min < 1) {  // one size: centre it
    x_min -= 1;
    x_max += 1;
  }
  const double plot_width = kPanelWidth - kLeft - kRight;
  const double plot_height = kPanelHeight - kTop - kBottom;
  const auto x_of = [&](std::uint64_t bytes) {
    return kLeft + (std::log2(static_cast<double>(bytes)) - x_min) / (x_max - x_min) * plot_width;
  };
  const auto y_of = [&](double gbps) { return kTop + plot_height * (1 - gbps / y_max); };

  svg << "<g class=\"panel\" transform=\"translate(" << origin_x << ',' << origin_y << ")\">"
      << "<text class=\"panel-title\" x=\"" << kLeft + plot_width / 2 << "\" y=\"18\" "
      << "text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">"
      << XmlEscape(panel.copy, XmlContext::kText) << "</text>";
  // Grid, y ticks and the frame.
  svg << "<g font-size=\"11\" fill=\"#333\">";
  for (int tick = 0; tick <= kYTicks; ++tick) {
    const double y = y_of(step * tick);
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << Number(y) << "\" x2=\"" << kLeft + plot_width
        << "\" y2=\"" << Number(y) << "\" stroke=\"#e3e3e3\"/>"
        << "<text x=\"" << kLeft - 6 << "\" y=\"" << Number(y + 4) << "\" text-anchor=\"end\">"
        << Number(step * tick) << "</text>";
  }
  for (std::uint64_t bytes : sizes) {
    const double x = x_of(bytes);
    svg << "<line x1=\"" << Number(x) << "\" y1=\"" << kTop + plot_height << "\" x2=\"" << Number(x)
        << "\" y2=\"" << kTop + plot_height + 4 << "\" stroke=\"#333\"/>"
        << "<text x=\"" << Number(x) << "\" y=\"" << kTop + plot_height + 17
        << "\" text-anchor=\"middle\">" << SizeText(bytes) << "</text>";
  }
  svg << "</g><rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << plot_width
      << "\" height=\"" << plot_height << "\" fill=\"none\" stroke=\"#333\"/>";
  // Axis labels.
  svg << "<text class=\"x-label\" x=\"" << kLeft + plot_width / 2 << "\" y=\"" << kPanelHeight - 8
      << "\" text-anchor=\"middle\" font-size=\"12\">"
      << "copy size (log2 scale)</text>"
      << "<text class=\"y-label\" transform=\"translate(16," << kTop + plot_height / 2
      << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">GB/s</text>";
  // One polyline and its points per series.
  for (const ChartLine& line : panel.lines) {
    const Style style = StyleOf(line.series);
    svg << "<g class=\"series\" data-series=\"" << Label(line.series) << "\"><polyline points=\"";
    for (const ChartPoint& point : line.points) {
      svg << Number(x_of(point.bytes)) << ',' << Number(y_of(point.gigabytes_per_second)) << ' ';
    }
    svg << "\" fill=\"none\" stroke=\"" << style.colour
        << "\" stroke-width=\"2\" stroke-dasharray=\"" << style.dash << "\"/>";
    for (const ChartPoint& point : line.points) {
      svg << "<circle class=\"point\" cx=\"" << Number(x_of(point.bytes)) << "\" cy=\""
          << Number(y_of(point.gigabytes_per_second)) << "\" r=\"3.5\" fill=\"" << style.colour
          << "\"><title>" << Label(line.series) << ", " << SizeText(point.bytes) << ": "
          << Number(point.gigabytes_per_second, "%.3f") << " GB/s</title></circle>";
    }
    svg << "</g>";
  }
  svg << "</g>\n";
}

}  // namespace

std::string RenderBandwidthSvg(const std::vector<ChartPanel>& panels) {
  std::set<BandwidthSeries> present;
  for (const ChartPanel& panel : panels) {
    for (const ChartLine& line : panel.lines) present.insert(line.series);
  }
  const int count = std::max<int>(1, static_cast<int>(panels.size()));
  const int columns = std::min(count, kMaxColumns);
  const int rows = (count + columns - 1) / columns;
  const int width = columns * kPanelWidth;
  const int height = kLegendHeight + rows * kPanelHeight;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bandwidth-chart\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << ' ' << height
      << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"copy bandwidth against copy "
         "size\">\n<title>Copy bandwidth (GB/s) against copy size</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  Legend(svg, present);
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const int column = static_cast<int>(i) % columns;
    const int row = static_cast<int>(i) / columns;
    Panel(svg, panels[i], column * kPanelWidth, kLegendHeight + row * kPanelHeight);
  }
  svg << "</svg>\n";
  return svg.str();
}

std::string RenderBandwidthSvgFile(const std::vector<ChartPanel>& panels) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + RenderBandwidthSvg(panels);
}

}  // namespace conformance
