// convlab harness — do not edit in a lab.
#include "common/cli/command_line.hpp"

#include "common/core/errors.hpp"

namespace convlab {

namespace {

// The text cxxopts quotes in its message (between its curly quotes), or "" when there is none.
std::string quoted(const std::string& message) {
    const std::string open = "\u2018", close = "\u2019";
    const size_t start = message.find(open);
    if (start == std::string::npos) return "";
    const size_t end = message.find(close, start + open.size());
    return end == std::string::npos ? "" : message.substr(start + open.size(), end - start - open.size());
}

std::string explain(const cxxopts::exceptions::exception& e) {
    const std::string what = quoted(e.what());
    if (what.empty()) return e.what();
    const std::string option = (what.size() == 1 ? "-" : "--") + what;
    if (dynamic_cast<const cxxopts::exceptions::no_such_option*>(&e)) return "unknown option " + option;
    if (dynamic_cast<const cxxopts::exceptions::missing_argument*>(&e) ||
        dynamic_cast<const cxxopts::exceptions::option_requires_argument*>(&e))
        return option + " needs a value";
    if (dynamic_cast<const cxxopts::exceptions::gratuitous_argument_for_option*>(&e)) return option + " takes no value";
    if (dynamic_cast<const cxxopts::exceptions::incorrect_argument_type*>(&e)) return "'" + what + "' is not a value that option takes";
    if (dynamic_cast<const cxxopts::exceptions::invalid_option_syntax*>(&e)) return "'" + what + "' is not an option";
    return e.what();
}

}  // namespace

cxxopts::ParseResult parse_command_line(cxxopts::Options& parser, int argc, char** argv, const std::string& program) {
    const std::string help = "; run ./" + program + " --help for the accepted options";
    cxxopts::ParseResult args;
    try {
        args = parser.parse(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        throw InputError(explain(e) + help);
    }
    if (!args.unmatched().empty()) throw InputError("unexpected argument '" + args.unmatched()[0] + "'" + help);
    return args;
}

}  // namespace convlab
