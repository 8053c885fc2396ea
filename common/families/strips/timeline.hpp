// convlab harness — do not edit in a lab.
// A timeline of what a GPU's engines did, from CUDA events (lab 9's strips): each span a copy in,
// a kernel or a copy out on one stream of one GPU. From it the report's overlap efficiency and
// the picture a lecturer shows (--out): a lane a stream, a colour an engine.
#pragma once
#include <string>
#include <vector>

namespace convlab {

enum class Engine { HostToDevice, Kernel, DeviceToHost };
const char* engine_name(Engine engine);  // "H2D", "kernel", "D2H"

struct TimelineSpan {
    int gpu = 0;
    int stream = 0;
    Engine engine = Engine::Kernel;
    double start_ms = 0, end_ms = 0;  // on one clock for the whole timeline
    std::string label;                // e.g. "strip 3"
};

// The time an engine of one GPU is busy: the length of the union of its spans (two copies that
// overlap on two streams keep the one engine busy once).
double busy_ms(const std::vector<TimelineSpan>& spans, int gpu, Engine engine);

// The time the busiest engine of any GPU needs on its own, over the wall time from the first
// span's start to the last one's end: 1 when everything else hides under the busiest engine's
// work, 1/3 for three equal engines one after the other. 0 for no spans. Spans must not end
// before they start (InputError).
double overlap_efficiency(const std::vector<TimelineSpan>& spans);

// An SVG picture: a lane for each (gpu, stream) in order, a rectangle a span coloured by its
// engine with its label as a tooltip, a time axis in ms, a legend; `title` above.
std::string timeline_svg(const std::vector<TimelineSpan>& spans, const std::string& title);

}  // namespace convlab
