// convlab harness — do not edit in a lab.
#include "common/device/launch_counter.hpp"

#include <atomic>

#ifndef CONVLAB_NO_CUPTI
#include <cupti.h>
#endif

namespace convlab {

#ifndef CONVLAB_NO_CUPTI
namespace {

// Every way to start GPU work, through the runtime or the driver (a runtime launch shows in both
// domains: only "none at all" matters here).
bool is_launch(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        switch (id) {
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
            case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000: return true;
            default: return false;
        }
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        switch (id) {
            case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
            case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice:
            case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
            case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: return true;
            default: return false;
        }
    }
    return false;
}

void CUPTIAPI on_api_call(void* counter, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    const auto* call = static_cast<const CUpti_CallbackData*>(data);
    if (call->callbackSite == CUPTI_API_ENTER && is_launch(domain, id)) ++*static_cast<std::atomic<int>*>(counter);
}

}  // namespace

LaunchCounter::LaunchCounter() {
    CUpti_SubscriberHandle handle = nullptr;
    const CUptiResult subscribed = cuptiSubscribe(&handle, on_api_call, &launches_);
    if (subscribed != CUPTI_SUCCESS) {
        problem_ = subscribed == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                       ? "CUPTI's one subscriber slot is taken, by a tool such as compute-sanitizer or by the program itself"
                       : "CUPTI refused a subscriber (error " + std::to_string(int(subscribed)) + ")";
        return;
    }
    subscriber_ = handle;
    subscribed_ = cuptiEnableDomain(1, handle, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS &&
                  cuptiEnableDomain(1, handle, CUPTI_CB_DOMAIN_DRIVER_API) == CUPTI_SUCCESS;
    if (!subscribed_) problem_ = "CUPTI refused the launch callbacks";
}

LaunchCounter::~LaunchCounter() {
    if (subscriber_) cuptiUnsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_));
}
#else
LaunchCounter::LaunchCounter() : problem_("the kit was built without CUPTI") {}
LaunchCounter::~LaunchCounter() {}
#endif

}  // namespace convlab
