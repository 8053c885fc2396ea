// The timeline of copies and kernels (lab 9's strips): engines' busy time, the overlap
// efficiency of serial and overlapped schedules, and the SVG picture.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/core/errors.hpp"
#include "common/families/strips/timeline.hpp"

using namespace convlab;

namespace {

TimelineSpan span(Engine engine, double start, double end, int gpu = 0, int stream = 0, std::string label = "") {
    TimelineSpan s;
    s.gpu = gpu, s.stream = stream, s.engine = engine, s.start_ms = start, s.end_ms = end, s.label = std::move(label);
    return s;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(Timeline, BusyTimeIsTheUnionOfAnEnginesSpans) {
    const std::vector<TimelineSpan> spans{span(Engine::HostToDevice, 0, 2, 0, 0), span(Engine::HostToDevice, 1, 3, 0, 1),
                                          span(Engine::HostToDevice, 5, 6, 0, 0), span(Engine::HostToDevice, 5.5, 5.8, 0, 2),
                                          span(Engine::Kernel, 0, 100), span(Engine::HostToDevice, 0, 50, 1)};
    EXPECT_DOUBLE_EQ(busy_ms(spans, 0, Engine::HostToDevice), 4.0);  // [0, 3] and [5, 6]
    EXPECT_DOUBLE_EQ(busy_ms(spans, 0, Engine::Kernel), 100.0);
    EXPECT_DOUBLE_EQ(busy_ms(spans, 1, Engine::HostToDevice), 50.0);
    EXPECT_DOUBLE_EQ(busy_ms(spans, 0, Engine::DeviceToHost), 0.0);
}

TEST(Timeline, SerialStripsUseAThirdOfTheBusiestEngineOverlappedOnesNearlyAll) {
    std::vector<TimelineSpan> serial, overlapped;
    for (int i = 0; i < 10; ++i) {
        const double t = 3.0 * i;  // one strip after another: in, kernel, out
        serial.push_back(span(Engine::HostToDevice, t, t + 1));
        serial.push_back(span(Engine::Kernel, t + 1, t + 2));
        serial.push_back(span(Engine::DeviceToHost, t + 2, t + 3));
        // three streams in turn: strip i's kernel under strip i + 1's copy in and i - 1's copy out
        overlapped.push_back(span(Engine::HostToDevice, i, i + 1, 0, i % 3));
        overlapped.push_back(span(Engine::Kernel, i + 1, i + 2, 0, i % 3));
        overlapped.push_back(span(Engine::DeviceToHost, i + 2, i + 3, 0, i % 3));
    }
    EXPECT_NEAR(overlap_efficiency(serial), 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(overlap_efficiency(overlapped), 10.0 / 12.0, 1e-12);
    // Two GPUs each with half the strips' kernels, side by side: each GPU's engine is busy all along.
    EXPECT_DOUBLE_EQ(overlap_efficiency({span(Engine::Kernel, 0, 10, 0), span(Engine::Kernel, 0, 10, 1)}), 1.0);
    EXPECT_DOUBLE_EQ(overlap_efficiency({}), 0.0);
    EXPECT_THROW(overlap_efficiency({span(Engine::Kernel, 2, 1)}), InputError);
}

TEST(Timeline, TheSvgHasALaneAStreamARectangleASpanAndEscapedText) {
    const std::vector<TimelineSpan> spans{span(Engine::HostToDevice, 10, 11, 0, 0, "strip 0"), span(Engine::Kernel, 11, 13, 0, 1, "strip <0>"),
                                          span(Engine::DeviceToHost, 13, 14, 1, 2, "strip 0")};
    const std::string svg = timeline_svg(spans, "lab 9 & friends");
    EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << svg;
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_EQ(count(svg, "<rect"), spans.size() + 3) << svg;  // and the legend's three
    for (const char* expected : {"GPU 0 stream 0", "GPU 0 stream 1", "GPU 1 stream 2", "lab 9 &amp; friends", "strip &lt;0&gt;: kernel",
                                 "4.00 ms", "#0072b2", "#e69f00", "#d55e00"})
        EXPECT_NE(svg.find(expected), std::string::npos) << expected << "\n" << svg;
    EXPECT_EQ(svg.find("<0>"), std::string::npos);
    EXPECT_THROW(timeline_svg({span(Engine::Kernel, 3, 2)}, "x"), InputError);
}
