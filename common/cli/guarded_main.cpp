// convlab harness — do not edit in a lab.
#include "common/cli/guarded_main.hpp"

#include <iostream>
#include <new>

#include "common/core/errors.hpp"
#include "common/core/exit_status.hpp"

namespace convlab {

int guarded_main(const std::string& program, const std::string& smaller_input, const std::function<int()>& body) {
    try {
        return body();
    } catch (const InputError& e) {
        std::cerr << program << ": error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const CudaError& e) {
        std::cerr << program << ": CUDA error: " << e.what() << "\n";
        return kExitCudaError;
    } catch (const DeviceError& e) {  // another back end's (OpenCL's): its message names the API
        std::cerr << program << ": " << e.what() << "\n";
        return kExitCudaError;
    } catch (const ReferenceWithheld& e) {
        std::cerr << program << ": " << e.what() << ": run it with --raw-out DIR, and check the results with the reference build's "
                  << "--compare\n";
        return kExitNoReference;
    } catch (const std::bad_alloc&) {
        std::cerr << program << ": error: out of host memory; accepted: " << smaller_input << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << program << ": internal error: " << e.what() << "\n";
        return kExitCudaError;
    }
}

}  // namespace convlab
