// convlab harness — do not edit in a lab.
// The expert tier: tuned variants beside the reference solution's own, which is the design the
// student's TODOs describe (issue 41). Its files are solutions/labN/expert/; the Makefile links
// them into the reference solution's program only, so a student's build, the grader's build of a
// submission and the student release hold none. Each expert file registers its variants while
// the program starts (a namespace-scope ExpertVariant); the family's runner adds them to the
// lab's variants, as extra rows named NAME-expert. The grader's performance reference is the
// design tier: it selects variants by the names of the lab's grading spec, which names none of these.
#pragma once
#include <utility>
#include <vector>

namespace convlab {

// The expert variants this program registered, of one family's kind of variant (GpuVariant,
// CannyPipeline, ...); empty in every program but a reference solution's.
template <class Variant>
std::vector<Variant>& expert_variants() {
    static std::vector<Variant> registered;  // one list a kind for the whole program
    return registered;
}

// Appends to a lab's own variants (each with a .name) the expert variants this program registered
// for them, NAME-expert for one of their names, marked expert: the rows after the design's. A
// reference solution's program also holds the expert files of the earlier labs it links (the
// Makefile's `uses`: lab 8's expert pipelines smooth with lab 6's tuned kernel), whose variants
// register too but are no rows of this lab: lab 7 links lab 6 and has no variant "fused" for lab
// 6's fused-expert.
template <class Variant>
void add_expert_tier(std::vector<Variant>& variants) {
    const size_t own = variants.size();
    for (Variant v : expert_variants<Variant>()) {
        for (size_t i = 0; i < own; ++i) {
            if (v.name != variants[i].name + "-expert") continue;
            v.expert = true;
            variants.push_back(std::move(v));  // no reference into variants is held past this
            break;
        }
    }
}

// `const ExpertVariant<GpuVariant> fused{{"fused-expert", ...}};` at namespace scope in an
// expert file: registered before main() runs.
template <class Variant>
struct ExpertVariant {
    explicit ExpertVariant(Variant variant) { expert_variants<Variant>().push_back(std::move(variant)); }
};

}  // namespace convlab
