// convlab harness — do not edit in a lab.
#include "common/report/text_table.hpp"

#include <algorithm>
#include <sstream>

namespace convlab {

std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool markdown) {
    std::vector<size_t> width(columns.size());
    for (size_t c = 0; c < columns.size(); ++c) {
        width[c] = std::max<size_t>(columns[c].header.size(), markdown ? 3 : 1);
        for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
    }
    std::ostringstream out;
    auto emit = [&](const std::vector<std::string>& cells) {
        for (size_t c = 0; c < cells.size(); ++c) {
            const size_t pad = width[c] - cells[c].size();
            const std::string padded = columns[c].right ? std::string(pad, ' ') + cells[c] : cells[c] + std::string(pad, ' ');
            out << (markdown ? "| " : c ? "  " : "") << padded << (markdown ? " " : "");
        }
        out << (markdown ? "|" : "") << "\n";
    };
    std::vector<std::string> headers;
    for (const TableColumn& c : columns) headers.push_back(c.header);
    emit(headers);
    if (markdown) {
        std::vector<std::string> rule;
        for (size_t c = 0; c < columns.size(); ++c)
            rule.push_back(columns[c].right ? std::string(width[c] - 1, '-') + ":" : std::string(width[c], '-'));
        emit(rule);
    }
    for (const auto& row : rows) emit(row);
    return out.str();
}

}  // namespace convlab
