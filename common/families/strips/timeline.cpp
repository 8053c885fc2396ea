// convlab harness — do not edit in a lab.
#include "common/families/strips/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include "common/core/errors.hpp"
#include "common/core/number_format.hpp"

namespace convlab {

namespace {

void require_ordered(const TimelineSpan& s) {
    if (!(s.end_ms >= s.start_ms))
        throw InputError("a timeline span of " + std::string(engine_name(s.engine)) + " ends at " + std::to_string(s.end_ms) +
                         " ms, before it starts at " + std::to_string(s.start_ms) + " ms");
}

// Text for SVG: the five characters XML reserves, escaped.
std::string xml_text(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

// Each engine's name and colour, in Engine's order. The colours are told apart under the common
// colour blindnesses (blue, orange, vermilion).
struct EngineStyle {
    const char* name;
    const char* colour;
};
constexpr EngineStyle kEngineStyles[] = {{"H2D", "#0072b2"}, {"kernel", "#e69f00"}, {"D2H", "#d55e00"}};
const char* engine_colour(Engine engine) { return kEngineStyles[int(engine)].colour; }

constexpr Engine kEngines[] = {Engine::HostToDevice, Engine::Kernel, Engine::DeviceToHost};

}  // namespace

const char* engine_name(Engine engine) { return kEngineStyles[int(engine)].name; }

double busy_ms(const std::vector<TimelineSpan>& spans, int gpu, Engine engine) {
    std::vector<std::pair<double, double>> intervals;
    for (const TimelineSpan& s : spans) {
        require_ordered(s);
        if (s.gpu == gpu && s.engine == engine) intervals.emplace_back(s.start_ms, s.end_ms);
    }
    std::sort(intervals.begin(), intervals.end());
    double busy = 0, end = -INFINITY;
    for (const auto& [start, stop] : intervals) {
        if (stop <= end) continue;             // inside the union so far
        busy += stop - std::max(start, end);  // the part past the union's end
        end = stop;
    }
    return busy;
}

double overlap_efficiency(const std::vector<TimelineSpan>& spans) {
    if (spans.empty()) return 0;
    double first = INFINITY, last = -INFINITY, busiest = 0;
    std::vector<int> gpus;
    for (const TimelineSpan& s : spans) {
        require_ordered(s);
        first = std::min(first, s.start_ms), last = std::max(last, s.end_ms);
        if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end()) gpus.push_back(s.gpu);
    }
    for (int gpu : gpus)
        for (Engine engine : kEngines) busiest = std::max(busiest, busy_ms(spans, gpu, engine));
    return last > first ? busiest / (last - first) : 1.0;
}

std::string timeline_svg(const std::vector<TimelineSpan>& spans, const std::string& title) {
    constexpr int kLeft = 120, kWidth = 900, kLane = 22, kTop = 40, kAxis = 30, kLegend = 24;
    std::map<std::pair<int, int>, int> lanes;  // (gpu, stream) -> lane, in order
    double first = INFINITY, last = -INFINITY;
    for (const TimelineSpan& s : spans) {
        require_ordered(s);
        lanes.emplace(std::make_pair(s.gpu, s.stream), 0);
        first = std::min(first, s.start_ms), last = std::max(last, s.end_ms);
    }
    int lane = 0;
    for (auto& entry : lanes) entry.second = lane++;
    if (spans.empty()) first = 0, last = 1;
    const double span_ms = last > first ? last - first : 1.0;
    const auto x_of = [&](double ms) { return kLeft + (ms - first) / span_ms * kWidth; };
    const int height = kTop + lane * kLane + kAxis + kLegend;
    std::ostringstream svg;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kWidth + 20 << "\" height=\"" << height
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    svg << "<text x=\"" << kLeft << "\" y=\"20\" font-size=\"14\">" << xml_text(title) << "</text>\n";
    for (const auto& [key, n] : lanes)
        svg << "<text x=\"4\" y=\"" << kTop + n * kLane + 15 << "\">GPU " << key.first << " stream " << key.second << "</text>\n";
    for (const TimelineSpan& s : spans) {
        const int y = kTop + lanes.at({s.gpu, s.stream}) * kLane + 2;
        svg << "<rect x=\"" << format_fixed(x_of(s.start_ms), 2) << "\" y=\"" << y << "\" width=\""
            << format_fixed(std::max(0.5, x_of(s.end_ms) - x_of(s.start_ms)), 2) << "\" height=\"" << kLane - 4 << "\" fill=\""
            << engine_colour(s.engine) << "\"><title>" << xml_text(s.label.empty() ? engine_name(s.engine) : s.label + ": " + engine_name(s.engine))
            << " " << format_fixed(s.end_ms - s.start_ms, 3) << " ms</title></rect>\n";
    }
    const int axis_y = kTop + lane * kLane + 4;
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << axis_y << "\" x2=\"" << kLeft + kWidth << "\" y2=\"" << axis_y << "\" stroke=\"black\"/>\n";
    for (int tick = 0; tick <= 4; ++tick) {
        const double ms = first + span_ms * tick / 4;
        svg << "<text x=\"" << format_fixed(x_of(ms), 1) << "\" y=\"" << axis_y + 16 << "\" text-anchor=\"middle\">"
            << format_fixed(ms - first, span_ms < 10 ? 2 : 1) << " ms</text>\n";
    }
    int x = kLeft;
    for (Engine engine : kEngines) {
        svg << "<rect x=\"" << x << "\" y=\"" << axis_y + kAxis - 2 << "\" width=\"14\" height=\"14\" fill=\"" << engine_colour(engine)
            << "\"/><text x=\"" << x + 18 << "\" y=\"" << axis_y + kAxis + 10 << "\">" << engine_name(engine) << "</text>\n";
        x += 90;
    }
    svg << "</svg>\n";
    return svg.str();
}

}  // namespace convlab
