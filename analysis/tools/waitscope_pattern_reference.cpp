// waitscope-pattern-reference: prints docs/pattern-reference.md (or writes it to FILE).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "analysis/metrics/pattern_reference.h"

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fputs("usage: waitscope-pattern-reference [FILE]\n", stderr);
    return 2;
  }
  if (argc == 1) {
    waitscope::metrics::writePatternReference(std::cout);
    return std::cout ? 0 : 1;
  }
  std::ofstream file(argv[1], std::ios::binary);
  waitscope::metrics::writePatternReference(file);
  file.close();
  if (!file) {
    std::fprintf(stderr, "waitscope-pattern-reference: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
