// convlab harness — do not edit in a lab.
// The grader's build of a submission (build/bin/labN-graded) links no CPU reference: the objects
// that compute one (WITHHELD_SRC in the Makefile) are left out, and every function they define is
// an alias of this one instead (common/tools/withhold-reference.sh writes the aliases, and checks
// the link). The student's process then never holds the answer: neither a call through the
// program's own symbol table nor a look through its memory finds a reference, because none was
// linked or computed. A call that reaches one anyway, whatever it meant to call and with whatever
// arguments (none is read), ends in ReferenceWithheld: the runner fails that variant alone, or,
// outside one, the program stops with exit status 5.
#include "common/core/errors.hpp"

extern "C" [[noreturn]] void convlab_reference_withheld() {
    throw convlab::ReferenceWithheld(
        "reached for a CPU reference of the kit, which the grader's build of a submission does not hold");
}
