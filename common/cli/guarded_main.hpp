// convlab harness — do not edit in a lab.
// The outermost frame of every lab program: turns an escaping exception into its one-line
// message on stderr and the exit status common/core/exit_status.hpp documents.
#pragma once
#include <functional>
#include <string>

namespace convlab {

// Runs body and returns its exit status; on an exception, prints "<program>: ..." and returns
// kExitBadInput (bad input, out of host memory: `smaller_input` says what to try) or kExitCudaError.
int guarded_main(const std::string& program, const std::string& smaller_input, const std::function<int()>& body);

}  // namespace convlab
