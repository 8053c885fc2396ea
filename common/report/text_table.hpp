// convlab harness — do not edit in a lab.
// Aligned plain-text and Markdown tables, and the number formats every report uses.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace convlab {

std::string format_fixed(double value, int decimals);
// Decimals that keep three significant figures for typical magnitudes.
std::string format_sig3(double value);
// Bytes as "1.25 GiB", for memory messages.
std::string format_gib(size_t bytes);
// Bytes in the largest binary unit they fill, three significant figures: "33 B", "11.1 KiB",
// "2.00 GiB" (lab 9's budgets run from a few bytes to gigabytes).
std::string format_bytes(double bytes);

struct TableColumn {
    std::string header;
    bool right = true;  // numbers align right, names left
};

// One line per row, columns padded to their widest cell; Markdown adds the pipes and the rule.
std::string render_table(const std::vector<TableColumn>& columns, const std::vector<std::vector<std::string>>& rows,
                         bool markdown);

}  // namespace convlab
