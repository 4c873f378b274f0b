#include "analysis/measure/otf2_write_error.h"

#include <cstdlib>
#include <cstring>

namespace waitscope::measure {

int errnoOf(OTF2_ErrorCode code) {
  const char* name = OTF2_Error_GetName(code);
  if (!name || !*name) return 0;
  for (const char* c = name; *c; ++c)
    if (*c < '0' || *c > '9') return 0;
  return std::atoi(name);
}

const char* describeWriteError(int code) {
  const auto otf2 = static_cast<OTF2_ErrorCode>(code);
  return errnoOf(otf2) != 0 ? std::strerror(errnoOf(otf2)) : OTF2_Error_GetDescription(otf2);
}

OTF2_ErrorCode noteWriteError(void* userData, const char*, std::uint64_t, const char*, OTF2_ErrorCode code,
                              const char*, va_list) {
  int& first = *static_cast<int*>(userData);
  if (code > OTF2_SUCCESS && (first == 0 || (errnoOf(static_cast<OTF2_ErrorCode>(first)) == 0 && errnoOf(code) != 0)))
    first = code;
  return code;
}

}  // namespace waitscope::measure
