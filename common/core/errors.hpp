// convlab harness — do not edit in a lab.
// The ways a run can stop early, each with its own exit status (see exit_status.hpp).
#pragma once
#include <stdexcept>
#include <string>

namespace convlab {

// Bad input from the person at the keyboard: a missing file, an unknown mask, an even size...
// The message is one line that says what is wrong and what is accepted.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A student function that still holds its skeleton body. The harness reports the variant as
// "not implemented yet" instead of checking garbage.
struct NotImplemented : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A call of a device back end's API that failed (CUDA or OpenCL): exit status 4.
struct DeviceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A CUDA call that failed. The message names the call, the file and the line (see cuda_check.cuh).
struct CudaError : DeviceError {
    using DeviceError::DeviceError;
};

// A variant this GPU cannot run as configured (e.g. more shared memory than a block may have).
// The harness reports it as skipped, with the reason, rather than as a failure.
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A call of a CPU reference in the grader's build of a submission, which links none
// (common/grading/withheld_reference.cpp): the variant that made it fails; the program exits 5 otherwise.
struct ReferenceWithheld : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown by a skeleton body. `what` names the function the student still has to write.
[[noreturn]] inline void todo(const std::string& what) {
    throw NotImplemented("not implemented yet: " + what);
}

}  // namespace convlab
