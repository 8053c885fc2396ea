// An OpenCL build log read into one line naming the student's file and line, whichever way the
// compiler names the place: PoCL's (it honours the kit's #line) and NVIDIA's ("<kernel>:LINE:",
// counted from the top of the text with the kit's prelude, as an H100's driver 580 wrote it).
#include <gtest/gtest.h>

#include <string>

#include "common/families/filters/cl_build_log.hpp"

using namespace convlab;

TEST(ClBuildLog, PoclNamesTheFileItself) {
    const std::string log = "error: /tmp/x/conv2d_naive.cl:42:19: expected expression\n    int missing = ;\n                  ^\n";
    EXPECT_EQ(first_build_error(log, "/tmp/x/conv2d_naive.cl", 20),
              "error: /tmp/x/conv2d_naive.cl:42:19: expected expression (OpenCL build log: 1 error)");
}

TEST(ClBuildLog, NvidiaCountsFromTheTopOfTheWholeText) {
    const std::string log = "<kernel>:62:19: error: expected expression\n    int missing = ;\n                  ^\n"
                            "<kernel>:70:5: error: use of undeclared identifier 'y'\n";
    EXPECT_EQ(first_build_error(log, "conv2d_naive.cl", 20),
              "error: conv2d_naive.cl:42:19: expected expression (OpenCL build log: 2 errors)");
}

TEST(ClBuildLog, APlaceInsideThePreludeStaysAsTheCompilerWroteIt) {
    EXPECT_EQ(in_students_file("<kernel>:20:1: error: x", "a.cl", 20), "<kernel>:20:1: error: x");
    EXPECT_EQ(in_students_file("<kernel>:21:1: error: x", "a.cl", 20), "a.cl:1:1: error: x");
    EXPECT_EQ(in_students_file("  <source>:30:2: warning: w", "a.cl", 0), "  a.cl:30:2: warning: w");
}

TEST(ClBuildLog, OneFormWhicheverCompilerWroteIt) {
    EXPECT_EQ(error_first("a.cl:3:7: error: expected ';'"), "error: a.cl:3:7: expected ';'");
    EXPECT_EQ(error_first("error: a.cl:3:7: expected ';'"), "error: a.cl:3:7: expected ';'");
    EXPECT_EQ(error_first("<kernel>:3:7: error: x"), "error: <kernel>:3:7: x");  // in the prelude: named as the compiler named it
    EXPECT_EQ(error_first("ptxas error: y"), "ptxas error: y");
}

TEST(ClBuildLog, ALogWithoutAnErrorLineGivesItsFirstWords) {
    EXPECT_EQ(first_build_error("\n\n  ptxas fatal : out of registers\n", "b.cl", 20),
              "b.cl: ptxas fatal : out of registers (OpenCL build log: 0 errors)");
    EXPECT_EQ(first_build_error("", "b.cl", 20), "b.cl: the OpenCL compiler failed and wrote no log (OpenCL build log: 0 errors)");
}
