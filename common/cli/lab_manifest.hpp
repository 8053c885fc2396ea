// convlab harness — do not edit in a lab.
// What a lab's manifest (labs/labN/manifest) tells its driver. The build turns the manifest into
// build/gen/labN/manifest.hpp, which defines the lab's kManifest (common/tools/manifest.sh), so
// that the number, title and student files are written once, in the manifest.
#pragma once

namespace convlab {

struct LabManifest {
    int number;
    const char* title;
    const char* student_files;  // as messages name them: "labs/lab3/conv2d_tiled.cu (and ...)"
};

// A lab's spec (LabSpec, ArrayLabSpec) with the number, title and student files its manifest
// gives; the driver adds the rest.
template <class Spec>
Spec spec_from(const LabManifest& manifest) {
    Spec spec;
    spec.number = manifest.number;
    spec.title = manifest.title;
    spec.student_files = manifest.student_files;
    return spec;
}

}  // namespace convlab
