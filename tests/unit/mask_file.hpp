// A mask file for a test: written on construction, removed when the test is done with it.
#pragma once
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

class MaskFile {
  public:
    explicit MaskFile(const std::string& text)
        : path_("/tmp/convlab-mask-" + std::to_string(::getpid()) + "-" + std::to_string(count_++) + ".txt") {
        std::ofstream(path_) << text;
    }
    ~MaskFile() { std::remove(path_.c_str()); }
    MaskFile(const MaskFile&) = delete;
    MaskFile& operator=(const MaskFile&) = delete;
    const std::string& path() const { return path_; }

  private:
    static inline int count_ = 0;  // a name of its own for each file of the process
    std::string path_;
};
