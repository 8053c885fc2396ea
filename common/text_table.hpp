// convlab harness — do not edit in a lab.
// Aligned plain-text and Markdown tables, and the number formats every report uses.
#pragma once
#include <string>
#include <vector>

namespace convlab {

std::string format_fixed(double value, int decimals);
// Decimals that keep three significant figures for typical magnitudes.
std::string format_sig3(double value);

struct TableColumn {
    std::string header;
    bool right = true;  // numbers align right, names left
};

// One line per row, columns padded to their widest cell; Markdown adds the pipes and the rule.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool markdown);

}  // namespace convlab
