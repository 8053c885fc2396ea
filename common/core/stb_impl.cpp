// convlab harness — do not edit in a lab.
// The one translation unit that compiles stb's implementations. The headers come from Debian's
// libstb-dev (or a folder named by STB_INCLUDE); nothing of stb lives in this tree.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // stb's own code, not ours to change
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_HDR  // 8-bit inputs only: an HDR file is refused as an unknown type
#define STBI_NO_LINEAR
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop
