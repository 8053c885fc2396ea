// convlab harness — do not edit in a lab.
#include "common/families/filters/cl_source_rules.hpp"

#include <cctype>
#include <vector>

namespace convlab {

namespace {

// The source as the preprocessor's directives see it: lines spliced where a backslash ends one,
// comments replaced by a space, each character tagged with the line it came from.
struct Logical {
    std::string text;
    std::vector<int> line;
};

Logical preprocessed_view(const std::string& s) {
    Logical out;
    int line = 1;
    bool in_block = false, in_line_comment = false;
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < s.size() && s[i + 2] == '\n'))) {
            i += s[i + 1] == '\r' ? 2 : 1;  // a joined line: the next one continues this one
            ++line;
            continue;
        }
        const char c = s[i];
        if (c == '\n') {
            in_line_comment = false;
            quote = 0;
            out.text += '\n';
            out.line.push_back(line++);
            continue;
        }
        if (in_line_comment) continue;
        if (in_block) {
            if (c == '*' && i + 1 < s.size() && s[i + 1] == '/') {
                in_block = false;
                ++i;
            }
            continue;
        }
        if (quote) {
            if (c == quote) quote = 0;
            else if (c == '\\' && i + 1 < s.size()) out.text += s[i++], out.line.push_back(line);
        } else if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {
            (s[i + 1] == '/' ? in_line_comment : in_block) = true;
            ++i;
            out.text += ' ';  // a comment is one space
            out.line.push_back(line);
            continue;
        } else if (c == '"' || c == '\'') {
            quote = c;
        }
        out.text += c;
        out.line.push_back(line);
    }
    return out;
}

}  // namespace

std::string forbidden_directive(const std::string& source, const std::string& shown) {
    const Logical view = preprocessed_view(source);
    const std::string& t = view.text;
    size_t start = 0;
    while (start < t.size()) {
        size_t end = t.find('\n', start);
        if (end == std::string::npos) end = t.size();
        size_t i = start;
        const auto skip_blanks = [&] {
            while (i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\v' || t[i] == '\f' || t[i] == '\r')) ++i;
        };
        skip_blanks();
        bool hash = false;
        if (i < end && t[i] == '#') hash = true, i += 1;
        else if (t.compare(i, 3, "?\?=") == 0) hash = true, i += 3;
        else if (t.compare(i, 2, "%:") == 0) hash = true, i += 2;
        if (hash) {
            skip_blanks();
            size_t word_end = i;
            while (word_end < end && (std::isalnum(static_cast<unsigned char>(t[word_end])) || t[word_end] == '_')) ++word_end;
            const std::string word = t.substr(i, word_end - i);
            if (word == "include" || word == "import" || word == "include_next")
                return shown + ":" + std::to_string(view.line[start]) + ": #" + word +
                       " is not allowed: a lab's kernel is the one file you hand in, and it may not read others";
        }
        start = end + 1;
    }
    return "";
}

}  // namespace convlab
