// convlab harness — do not edit in a lab.
// cxxopts parsing with the kit's error lines: every program (the image labs' harness and lab 5's
// driver) says what was wrong with its command line the same way, in the kit's words.
#pragma once
#include <cxxopts.hpp>
#include <string>

namespace convlab {

// parser.parse(argc, argv), or an InputError such as "unknown option --nosuch; run ./lab1 --help
// for the accepted options". A word that is not an option (an unmatched positional) is refused too.
cxxopts::ParseResult parse_command_line(cxxopts::Options& parser, int argc, char** argv, const std::string& program);

}  // namespace convlab
