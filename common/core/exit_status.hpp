// convlab harness — do not edit in a lab.
// Exit statuses of every lab program; README.md and `--help` list the same table.
#pragma once

namespace convlab {

enum ExitStatus : int {
    kExitPass = 0,        // every variant that ran passed its check (a --raw-out run: wrote its result)
    kExitCheckFailed = 1, // at least one variant failed its check or is not implemented yet
    kExitBadInput = 2,    // bad option, image, mask or output folder: nothing was run or written
    kExitNoGpu = 3,       // no usable CUDA device: the CPU part ran and passed, the GPU part was skipped
    kExitCudaError = 4,   // a CUDA (or OpenCL) call failed during the run (the message names the call, file and line)
    kExitNoReference = 5, // the grader's build of a submission reached for a CPU reference it does not hold
};

}  // namespace convlab
