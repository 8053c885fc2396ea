// A lab's .cl file may not name another file: every spelling of #include the OpenCL compiler's
// preprocessor would obey is refused with its line, and nothing else is.
#include <gtest/gtest.h>

#include <string>

#include "common/families/filters/cl_source_rules.hpp"

using namespace convlab;

namespace {

std::string refusal(const std::string& source) { return forbidden_directive(source, "conv2d_naive.cl"); }

}  // namespace

TEST(ClSourceRules, AKernelWithoutDirectivesPasses) {
    EXPECT_EQ(refusal("#define TILE 16\nkernel void k(global float* o) { o[0] = TILE; }\n"), "");
    EXPECT_EQ(refusal("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#if 1\n#endif\n"), "");
}

TEST(ClSourceRules, IncludeIsRefusedWithItsLine) {
    const std::string r = refusal("// lab 11\n\n#include \"../solutions/lab11/conv2d_naive.cl\"\n");
    EXPECT_EQ(r.rfind("conv2d_naive.cl:3: #include is not allowed", 0), 0u) << r;
}

TEST(ClSourceRules, EverySpellingThePreprocessorObeysIsRefused) {
    for (const std::string source : {"#include <x.cl>\n", "  #  include \"x\"\n", "#\\\ninclude \"x\"\n", "#/* a comment */include \"x\"\n",
                                     "?\?=include \"x\"\n", "%:include \"x\"\n", "#import \"x\"\n", "#include_next <x>\n",
                                     "\t#include\t\"x\"\r\n", "#inc\\\nlude \"x\"\n"})
        EXPECT_NE(refusal(source), "") << source;
}

TEST(ClSourceRules, TheWordElsewhereIsNotADirective) {
    EXPECT_EQ(refusal("// #include \"x\" in a comment\n"), "");
    EXPECT_EQ(refusal("/*\n#include \"x\"\n*/\n"), "");
    EXPECT_EQ(refusal("constant char* s = \"#include\";\n"), "");
    EXPECT_EQ(refusal("int include = 1; // a name\n"), "");
}

TEST(ClSourceRules, TheLineCountsJoinedLines) {
    const std::string r = refusal("int a = 1 + \\\n 2;\n#include \"x\"\n");
    EXPECT_EQ(r.rfind("conv2d_naive.cl:3:", 0), 0u) << r;
}
