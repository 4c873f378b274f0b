#include "analysis/report/file_uri.h"

namespace waitscope::report {

std::string fileUri(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = path.starts_with('/') ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace waitscope::report
