// convlab harness — do not edit in a lab.
// Aligned plain-text and Markdown tables (their numbers formatted by core/number_format.hpp).
#pragma once
#include <string>
#include <vector>

namespace convlab {

struct TableColumn {
    std::string header;
    bool right = true;  // numbers align right, names left
};

// One line per row, columns padded to their widest cell; Markdown adds the pipes and the rule.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool markdown);

}  // namespace convlab
