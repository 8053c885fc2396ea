// convlab harness — do not edit in a lab.
#include "common/core/border.hpp"

#include "common/core/errors.hpp"

namespace convlab {

Border parse_border(const std::string& name) {
    if (name == "zero") return Border::Zero;
    if (name == "clamp") return Border::Clamp;
    if (name == "wrap") return Border::Wrap;
    if (name == "mirror") return Border::Mirror;
    throw InputError("unknown border '" + name + "'; accepted: zero, clamp, wrap, mirror");
}

const char* border_name(Border border) {
    switch (border) {
        case Border::Zero: return "zero";
        case Border::Clamp: return "clamp";
        case Border::Wrap: return "wrap";
        case Border::Mirror: return "mirror";
    }
    return "?";
}

}  // namespace convlab
