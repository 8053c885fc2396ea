// convlab harness — do not edit in a lab.
// The forms a report is rendered in (report.hpp's render; --format on the command line).
#pragma once

namespace convlab {

enum class Format { Text, Markdown, Csv, Json };

}  // namespace convlab
